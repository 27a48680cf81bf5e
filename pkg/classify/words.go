package classify

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"docsuite/pkg/doctypes"
)

//go:embed typewords.json
var typeWordsJSON []byte

//go:embed wordweights.json
var wordWeightsJSON []byte

// LoadWordWeights returns the weights shipped with the classifier
// (wordweights.json, written by tools/wordsfit).
func LoadWordWeights() (WordWeights, error) {
	var w WordWeights
	if err := json.Unmarshal(wordWeightsJSON, &w); err != nil {
		return w, fmt.Errorf("classify: wordweights.json: %w", err)
	}
	if w.Picture <= 0 || w.PictureFloor <= 0 || w.PictureFloor >= 1 {
		return w, fmt.Errorf("classify: wordweights.json: picture weight %g and floor %g out of range", w.Picture, w.PictureFloor)
	}
	return w, nil
}

// typeWordsFile is the layout of typewords.json: the words each catalogue
// type prints (titles, captions, field labels), and the words printed on
// documents outside the catalogue, all folded (see Fold).
type typeWordsFile struct {
	Comment string              `json:"_comment,omitempty"`
	Types   map[string][]string `json:"types"`
	Other   []string            `json:"other"`
}

// TypeWords tells how much the words read on a document speak for each
// catalogue type (for its family: see newTypeWords). A word counts for a
// type by how rare it is across the catalogue: a title printed by one type only ("СТРАХОВОЕ") weighs more
// than a caption every passport prints ("SURNAME"), and a word documents
// outside the catalogue print too weighs less again.
type TypeWords struct {
	types  map[string]map[string]float64 // type -> word -> weight
	total  map[string]float64            // type -> summed weight of its words
	byLen  map[int][]knownWord           // every known word, by length in runes, sorted
	weight map[string]float64
}

// knownWord is a word some template prints, with its runes for matching.
type knownWord struct {
	text  string
	runes []rune
}

// minWordLen is the shortest word that counts: shorter ones are too often
// read out of noise.
const minWordLen = 3

// LoadTypeWords returns the table shipped with the classifier
// (typewords.json, kept equal to the synthetic factory's templates).
func LoadTypeWords() (*TypeWords, error) {
	var f typeWordsFile
	if err := json.Unmarshal(typeWordsJSON, &f); err != nil {
		return nil, fmt.Errorf("classify: typewords.json: %w", err)
	}
	for t := range f.Types {
		if !doctypes.Known(t) || doctypes.IsSpecial(t) {
			return nil, fmt.Errorf("classify: typewords.json: %q is not a catalogue type", t)
		}
	}
	return newTypeWords(f.Types, f.Other), nil
}

// newTypeWords weighs the words per family of types (doctypes.Family):
// year and side variants of one document print much the same words, and
// where their templates differ the picture, not the words, should choose.
func newTypeWords(types map[string][]string, other []string) *TypeWords {
	families := map[string]map[string]bool{}
	for t, ws := range types {
		f := doctypes.Family(t)
		if families[f] == nil {
			families[f] = map[string]bool{}
		}
		for _, w := range ws {
			families[f][w] = true
		}
	}
	df := map[string]int{}
	for _, ws := range families {
		for w := range ws {
			df[w]++
		}
	}
	for _, w := range other {
		df[w] += 2 // printed outside the catalogue: weak evidence for any type
	}
	n := float64(len(families))
	tw := &TypeWords{types: map[string]map[string]float64{}, total: map[string]float64{}, byLen: map[int][]knownWord{},
		weight: map[string]float64{}}
	for w, d := range df {
		tw.weight[w] = math.Log(1 + n/float64(d))
		r := []rune(w)
		tw.byLen[len(r)] = append(tw.byLen[len(r)], knownWord{text: w, runes: r})
	}
	for _, ws := range tw.byLen {
		// Sorted, so a read word as near to two known words matches the
		// same one on every run.
		sort.Slice(ws, func(a, b int) bool { return ws[a].text < ws[b].text })
	}
	for t := range types {
		m := map[string]float64{}
		sum := 0.0
		for w := range families[doctypes.Family(t)] {
			m[w] = tw.weight[w]
			sum += m[w]
		}
		tw.types[t], tw.total[t] = m, max(sum, 1e-9)
	}
	return tw
}

// WordScore is what the words read on one document say.
type WordScore struct {
	// Matched is, per catalogue type, the summed weight of its words that
	// were read (each word once).
	Matched map[string]float64
	// Read counts the words read (minWordLen letters or more), Unknown
	// those of them that no template prints.
	Read, Unknown int
}

// Score matches the words read on a document against the catalogue's. A
// read word matches a known word of its length exactly or, from five
// letters, with one letter wrong (two from nine letters): OCR misreads a
// letter or two of a title, seldom more.
func (tw *TypeWords) Score(read []string) WordScore {
	s := WordScore{Matched: map[string]float64{}}
	seen := map[string]bool{}
	for _, r := range read {
		w := Fold(r)
		if len([]rune(w)) < minWordLen {
			continue
		}
		s.Read++
		known := tw.match(w)
		if known == "" {
			s.Unknown++
			continue
		}
		if seen[known] {
			continue
		}
		seen[known] = true
		for t, m := range tw.types {
			if v, ok := m[known]; ok {
				s.Matched[t] += v
			}
		}
	}
	return s
}

// Known reports whether a read word is (within Score's tolerance) a word
// some template prints.
func (tw *TypeWords) Known(read string) bool {
	w := Fold(read)
	return len([]rune(w)) >= minWordLen && tw.match(w) != ""
}

// match returns the known word w is read as, or "".
func (tw *TypeWords) match(w string) string {
	if _, ok := tw.weight[w]; ok {
		return w
	}
	rw := []rune(w)
	k := allowedErrors(len(rw))
	if k == 0 {
		return ""
	}
	best, bestD := "", k+1
	for l := len(rw) - k; l <= len(rw)+k; l++ {
		for _, c := range tw.byLen[l] {
			if d := editDistance(rw, c.runes, bestD); d < bestD {
				best, bestD = c.text, d
			}
		}
	}
	return best
}

func allowedErrors(n int) int {
	switch {
	case n >= 9:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// limit or more.
func editDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
			}
			cur[j] = c
			rowMin = min(rowMin, c)
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// latinLookAlikes maps the Latin capitals that look like Cyrillic ones to
// them: OCR with both alphabets loaded mixes them within a word.
var latinLookAlikes = map[rune]rune{
	'A': 'А', 'B': 'В', 'C': 'С', 'E': 'Е', 'H': 'Н', 'K': 'К', 'M': 'М',
	'O': 'О', 'P': 'Р', 'T': 'Т', 'X': 'Х', 'Y': 'У',
}

// Fold brings a word to the form words are compared in: letters only,
// upper case, Ё as Е, Latin look-alikes as their Cyrillic twins.
func Fold(w string) string {
	var b strings.Builder
	for _, r := range w {
		if !unicode.IsLetter(r) {
			continue
		}
		r = unicode.ToUpper(r)
		if r == 'Ё' {
			r = 'Е'
		}
		if c, ok := latinLookAlikes[r]; ok {
			r = c
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SplitWords cuts text into words: runs of letters, whatever separates
// them.
func SplitWords(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
}

// WordWeights turn what the printed words say into a revision of the
// picture's probabilities (ApplyWords). They are fitted on synthetic crops
// (see docs/models.md); PictureFloor is added to the picture's probabilities
// first, so words can overrule a confidently wrong picture.
type WordWeights struct {
	Picture      float64 `json:"picture"`       // on the log of the picture's probability
	Matched      float64 `json:"matched"`       // on the summed weight of the type's words read
	Share        float64 `json:"share"`         // on the share of the type's words read
	OtherUnknown float64 `json:"other_unknown"` // on log(1 + words no template prints), for other
	NonDocRead   float64 `json:"nondoc_read"`   // on log(1 + words read), for not_document and empty
	PictureFloor float64 `json:"picture_floor"`
}

// ApplyWords revises the picture's probabilities p (per class of classes)
// with the words read on the document, and returns them renormalised. A
// class's log-probability becomes
//
//	Picture·log(p + floor) + Matched·M + Share·M/T
//	  + OtherUnknown·log(1+U) (other) + NonDocRead·log(1+R) (not_document, empty)
//
// where M is the weight of the type's words read, T that of all its
// words, U the words read that no template prints and R all words read.
func (tw *TypeWords) ApplyWords(w WordWeights, classes []string, p []float64, s WordScore) []float64 {
	return Softmax(tw.Logits(w, classes, p, s))
}

// Softmax turns log-probabilities z, known up to a constant, into
// probabilities, in place, and returns z.
func Softmax(z []float64) []float64 {
	top := math.Inf(-1)
	for _, v := range z {
		top = max(top, v)
	}
	sum := 0.0
	for i := range z {
		z[i] = math.Exp(z[i] - top)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
	return z
}

// Logits returns the unnormalised log-probabilities ApplyWords
// normalises.
func (tw *TypeWords) Logits(w WordWeights, classes []string, p []float64, s WordScore) []float64 {
	z := make([]float64, len(p))
	for i, c := range classes {
		v := w.Picture * math.Log(p[i]+w.PictureFloor)
		switch c {
		case doctypes.Other:
			v += w.OtherUnknown * math.Log1p(float64(s.Unknown))
		case doctypes.NotDocument, doctypes.Empty:
			v += w.NonDocRead * math.Log1p(float64(s.Read))
		default:
			if m := s.Matched[c]; m > 0 {
				v += w.Matched*m + w.Share*m/tw.total[c]
			}
		}
		z[i] = v
	}
	return z
}
