package classify

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sort"
)

// dictionaryGz is Tesseract's own Russian and English word lists, folded
// (see Fold), sorted, one word per line: written by tools/dictwords.
//
//go:embed dictionary.txt.gz
var dictionaryGz []byte

// minDictLen is the shortest word the dictionary is asked about. Folded
// (Latin look-alikes made Cyrillic), nearly every string of three capitals
// is some abbreviation or name of the two lists, and OCR reads such
// strings out of any noise; four letters keep THIS, YOUR and POUR, the
// commonest words of foreign documents (five lost most of the unknown
// words of the factory's documents outside the catalogue: docs/models.md).
const minDictLen = 4

// DictionaryWord reports whether a folded word is long enough for the
// dictionary to be asked about it (tools/dictwords writes no shorter
// ones).
func DictionaryWord(folded string) bool {
	return len([]rune(folded)) >= minDictLen
}

// dictionary is a sorted word list kept as one string and the offsets of
// its words: a third of a million words in a few megabytes.
type dictionary struct {
	text string
	ends []uint32 // ends[i] is where word i ends in text
}

// loadDictionary reads the embedded word list.
func loadDictionary() (*dictionary, error) {
	zr, err := gzip.NewReader(bytes.NewReader(dictionaryGz))
	if err != nil {
		return nil, fmt.Errorf("classify: dictionary.txt.gz: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("classify: dictionary.txt.gz: %w", err)
	}
	// One pass: the words are copied into text without their newlines.
	text := make([]byte, 0, len(b))
	d := &dictionary{ends: make([]uint32, 0, bytes.Count(b, []byte{'\n'}))}
	var prev []byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			i = len(b)
		}
		w := b[:i]
		b = b[min(i+1, len(b)):]
		if bytes.Compare(w, prev) <= 0 {
			return nil, fmt.Errorf("classify: dictionary.txt.gz: %q after %q: not sorted", w, prev)
		}
		text = append(text, w...)
		d.ends = append(d.ends, uint32(len(text)))
		prev = w
	}
	d.text = string(text)
	return d, nil
}

// word returns the dictionary's word i.
func (d *dictionary) word(i int) string {
	start := uint32(0)
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.text[start:d.ends[i]]
}

// has reports whether the dictionary holds the folded word w.
func (d *dictionary) has(w string) bool {
	i := sort.Search(len(d.ends), func(i int) bool { return d.word(i) >= w })
	return i < len(d.ends) && d.word(i) == w
}
