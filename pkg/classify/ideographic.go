package classify

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Japanese print runs its words together without spaces, and a word of
// two ideographs (住所, address; 交付, issued) says as much as a Latin
// word of five letters: such words count from minIdeoLen runes, and
// they are found in a line's text by looking for each known one
// (IdeographicWords) rather than by splitting it into words.
const minIdeoLen = 2

// ideographic reports whether r is a Han ideograph or Japanese kana.
func ideographic(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// ideoWord reports whether w is written in ideographs and kana only.
func ideoWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !ideographic(r) {
			return false
		}
	}
	return true
}

// countsAsWord reports whether the folded word w is long enough to count
// as evidence: minWordLen runes, or minIdeoLen in ideographs and kana.
func countsAsWord(w string) bool {
	n := utf8.RuneCountInString(w)
	return n >= minWordLen || n >= minIdeoLen && ideoWord(w)
}

// ideoWords returns the words of the lexicons written in ideographs and
// kana, longest first (then in order), for IdeographicWords.
func ideoWords(ls ...*lexicon) []string {
	var out []string
	for _, l := range ls {
		for w := range l.weight {
			if ideoWord(w) {
				out = append(out, w)
			}
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if la, lb := utf8.RuneCountInString(out[a]), utf8.RuneCountInString(out[b]); la != lb {
			return la > lb
		}
		return out[a] < out[b]
	})
	return out
}

// IdeographicWords returns the words in ideographs and kana that some
// template prints or some field holds found in text, one line read by an
// OCR model for such a script, each once, in the order of the known words
// (longest first). The line's spaces are dropped first: the OCR model
// reads 日本花子 as 日 本 花 子. The words found are what Score is given.
func (tw *TypeWords) IdeographicWords(text string) []string {
	line := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, text)
	var out []string
	for _, w := range tw.ideo {
		if strings.Contains(line, w) {
			out = append(out, w)
		}
	}
	return out
}
