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
	"docsuite/pkg/editdist"
	"docsuite/pkg/prob"
)

//go:embed typewords.json
var typeWordsJSON []byte

//go:embed wordweights.json
var wordWeightsJSON []byte

// LoadWordWeights returns the weights shipped with the classifier
// (wordweights.json, written by tools/wordsfit).
func LoadWordWeights() (WordWeights, error) {
	return ParseWordWeights(wordWeightsJSON)
}

// ParseWordWeights reads weights in wordweights.json's layout and checks
// the picture's weight and floor.
func ParseWordWeights(b []byte) (WordWeights, error) {
	var w WordWeights
	if err := json.Unmarshal(b, &w); err != nil {
		return w, fmt.Errorf("classify: wordweights.json: %w", err)
	}
	if w.Picture <= 0 || w.PictureFloor <= 0 || w.PictureFloor >= 1 {
		return w, fmt.Errorf("classify: wordweights.json: picture weight %g and floor %g out of range", w.Picture, w.PictureFloor)
	}
	return w, nil
}

// typeWordsFile is the layout of typewords.json: the words each catalogue
// type prints (titles, captions, field labels), the words printed on
// documents outside the catalogue, and the words the factory prints as
// field values (names, places, authorities) per family, all folded (see
// Fold).
type typeWordsFile struct {
	Comment     string              `json:"_comment,omitempty"`
	Types       map[string][]string `json:"types"`
	Other       []string            `json:"other"`
	Values      map[string][]string `json:"values"`
	OtherValues []string            `json:"other_values"`
	// EdgeNumber lists the types that print a passport's series and number
	// along their right edge (Evidence.EdgeNumber).
	EdgeNumber []string `json:"edge_number"`
}

// TypeWords tells how much the words read on a document speak for each
// catalogue type (for its family: see newTypeWords). A word counts for a
// type by how rare it is across the catalogue: a title printed by one type only ("СТРАХОВОЕ") weighs more
// than a caption every passport prints ("SURNAME"), and a word documents
// outside the catalogue print too weighs less again. Values filled into a
// type's fields (a patronymic, a town, an issuing office) are a second,
// separate kind of evidence: they are not the template's words, but they
// are not the unknown words of a document outside the catalogue either.
// A TypeWords is read-only once loaded, safe for concurrent use.
type TypeWords struct {
	types  map[string]map[string]float64 // type -> word -> weight
	total  map[string]float64            // type -> summed weight of its words
	words  *lexicon                      // the templates' words
	values *lexicon                      // the field values' words
	valued map[string]map[string]float64 // type -> value word -> weight
	named  map[string]float64            // type -> mean weight of its name values (see nameLike)
	edge   map[string]bool               // the types printing the edge number
	dict   *dictionary                   // Tesseract's Russian and English words
	ideo   []string                      // the words in ideographs and kana (IdeographicWords)
}

// lexicon is a set of known words with their weights, indexed for
// matching with OCR's slips.
type lexicon struct {
	byLen  map[int][]knownWord // every known word, by length in runes, sorted
	weight map[string]float64
}

// knownWord is a word of a lexicon, with its runes for matching.
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
	for _, t := range f.EdgeNumber {
		if !doctypes.Known(t) || doctypes.IsSpecial(t) {
			return nil, fmt.Errorf("classify: typewords.json: edge number: %q is not a catalogue type", t)
		}
	}
	tw := newTypeWords(f)
	var err error
	if tw.dict, err = loadDictionary(); err != nil {
		return nil, err
	}
	return tw, nil
}

// newTypeWords weighs the words per family of types (doctypes.Family):
// year and side variants of one document print much the same words, and
// where their templates differ the picture, not the words, should choose.
// A word weighs log(1 + families / families printing it); printed outside
// the catalogue too, it counts as printed by two more families.
func newTypeWords(f typeWordsFile) *TypeWords {
	families := map[string]map[string]bool{}
	for t, ws := range f.Types {
		fam := doctypes.Family(t)
		if families[fam] == nil {
			families[fam] = map[string]bool{}
		}
		for _, w := range ws {
			families[fam][w] = true
		}
	}
	valued := map[string]map[string]bool{}
	for fam, ws := range f.Values {
		valued[fam] = map[string]bool{}
		for _, w := range ws {
			valued[fam][w] = true
		}
	}
	tw := &TypeWords{types: map[string]map[string]float64{}, total: map[string]float64{},
		valued: map[string]map[string]float64{}, named: map[string]float64{}, edge: map[string]bool{}}
	for _, t := range f.EdgeNumber {
		tw.edge[t] = true
	}
	tw.words = newLexicon(families, f.Other)
	tw.values = newLexicon(valued, f.OtherValues)
	tw.ideo = ideoWords(tw.words, tw.values)
	for t := range f.Types {
		m := map[string]float64{}
		sum := 0.0
		for w := range families[doctypes.Family(t)] {
			m[w] = tw.words.weight[w]
			sum += m[w]
		}
		tw.types[t], tw.total[t] = m, max(sum, 1e-9)
	}
	for _, t := range doctypes.All() {
		if ws, ok := valued[doctypes.Family(t)]; ok && !doctypes.IsSpecial(t) {
			m := map[string]float64{}
			names, n := 0.0, 0
			for w := range ws {
				m[w] = tw.values.weight[w]
				if nameLike(w) {
					names += m[w]
					n++
				}
			}
			tw.valued[t] = m
			if n > 0 {
				tw.named[t] = names / float64(n)
			}
		}
	}
	return tw
}

// newLexicon weighs each word of the families' sets by how few families
// hold it; the words in outside count as held by two more.
func newLexicon(families map[string]map[string]bool, outside []string) *lexicon {
	df := map[string]int{}
	for _, ws := range families {
		for w := range ws {
			df[w]++
		}
	}
	for _, w := range outside {
		df[w] += 2 // printed outside the catalogue: weak evidence for any type
	}
	n := float64(len(families))
	l := &lexicon{byLen: map[int][]knownWord{}, weight: map[string]float64{}}
	for w, d := range df {
		l.weight[w] = math.Log(1 + n/float64(d))
		r := []rune(w)
		l.byLen[len(r)] = append(l.byLen[len(r)], knownWord{text: w, runes: r})
	}
	for _, ws := range l.byLen {
		// Sorted, so a read word as near to two known words matches the
		// same one on every run.
		sort.Slice(ws, func(a, b int) bool { return ws[a].text < ws[b].text })
	}
	return l
}

// WordScore is what the words read on one document say.
type WordScore struct {
	// Matched is, per catalogue type, the summed weight of its words that
	// were read (each word once).
	Matched map[string]float64
	// Values is, per catalogue type, the summed weight of the words read
	// that its fields print as values and no template prints (each once);
	// a holder's first name or patronymic the factory does not print
	// (nameLike) counts for the types whose values hold names, as much as
	// the mean of their name values.
	Values map[string]float64
	// Read counts the legible words read (minWordLen letters or more,
	// minIdeoLen in ideographs and kana):
	// a template's word, a field's value, a holder's first name or
	// patronymic (see nameLike), or a word the dictionary holds
	// (minDictLen letters or more). Unknown counts those of them that no
	// template prints and no field holds but the dictionary does, short
	// ones not one letter off a template's word (lexicon.near): the real
	// words of a document outside the catalogue. What OCR reads out of a
	// noisy photograph (gibberish, a surname no dictionary lists) is
	// neither: it says nothing of the document's type.
	Read, Unknown int
	// EdgeNumber is not a word: the caller sets it from
	// Evidence.EdgeNumber, and Logits weighs it with the words.
	EdgeNumber bool
}

// Score matches the words read on a document against the catalogue's. A
// read word matches a known word of its length exactly or, from five
// letters, with one letter wrong (two from nine letters): OCR misreads a
// letter or two of a title, seldom more. A template's word is looked for
// first, then a field value's.
func (tw *TypeWords) Score(read []string) WordScore {
	s := WordScore{Matched: map[string]float64{}, Values: map[string]float64{}}
	seen := map[string]bool{}
	for _, r := range read {
		w := Fold(r)
		if !countsAsWord(w) {
			continue
		}
		into, table := s.Matched, tw.types
		known := tw.words.match(w)
		if known == "" {
			into, table = s.Values, tw.valued
			known = tw.values.match(w)
		}
		if known == "" {
			switch {
			case specimenWord(w):
				// A sample's mark says nothing of its type.
			case nameLike(w):
				// A holder's name the factory never prints (its names
				// are few on purpose): evidence for the types whose
				// fields hold such names, as much as one of theirs.
				s.Read++
				if !seen[w] {
					seen[w] = true
					for t, v := range tw.named {
						s.Values[t] += v
					}
				}
			case DictionaryWord(w) && tw.dict.has(w) && !tw.words.near(w):
				s.Read++
				s.Unknown++
			}
			continue
		}
		s.Read++
		if seen[known] {
			continue
		}
		seen[known] = true
		for t, m := range table {
			if v, ok := m[known]; ok {
				into[t] += v
			}
		}
	}
	return s
}

// ScoreEvidence is Score of the words read with the edge number
// (Evidence.EdgeNumber) set beside them: what ApplyWords weighs.
func (tw *TypeWords) ScoreEvidence(read []string, edgeNumber bool) WordScore {
	s := tw.Score(read)
	s.EdgeNumber = edgeNumber
	return s
}

// PrintsEdgeNumber reports whether type t prints a passport's series and
// number along its right edge (Evidence.EdgeNumber).
func (tw *TypeWords) PrintsEdgeNumber(t string) bool { return tw.edge[t] }

// Known reports whether a read word is (within Score's tolerance) a word
// some template prints.
func (tw *TypeWords) Known(read string) bool {
	w := Fold(read)
	return countsAsWord(w) && tw.words.match(w) != ""
}

// Familiar reports whether a read word is (within Score's tolerance) a
// word some template prints or some field holds as a value (a name, a
// town, an office), or, read exactly, a common first name or a word that
// ends like a patronymic. Gibberish read off a crop turned the wrong way
// is none of these.
func (tw *TypeWords) Familiar(read string) bool {
	w := Fold(read)
	return countsAsWord(w) && (nameLike(w) || tw.words.match(w) != "" || tw.values.match(w) != "")
}

// match returns the known word w is read as, or "".
func (l *lexicon) match(w string) string {
	if _, ok := l.weight[w]; ok {
		return w
	}
	rw := []rune(w)
	k := allowedErrors(len(rw))
	if k == 0 {
		return ""
	}
	best, bestD := "", k+1
	for n := len(rw) - k; n <= len(rw)+k; n++ {
		for _, c := range l.byLen[n] {
			if d := editdist.Distance(rw, c.runes, bestD); d < bestD {
				best, bestD = c.text, d
			}
		}
	}
	return best
}

// near reports whether w, too short for match to forgive a wrong letter
// (allowedErrors), is one letter off a known word of its length: a
// caption misread (ДАТА as ЛАТА) that the dictionary happens to hold is
// no evidence of a document outside the catalogue.
func (l *lexicon) near(w string) bool {
	rw := []rune(w)
	if allowedErrors(len(rw)) > 0 {
		return false
	}
	for _, c := range l.byLen[len(rw)] {
		if editdist.Distance(rw, c.runes, 2) <= 1 {
			return true
		}
	}
	return false
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

// specimenWords are the folded specimen marks printed across published
// samples of documents of every type: the factory's (synth.SpecimenWords,
// kept in step by TestScoreIgnoresFactorySpecimenMarks) and "sample".
var specimenWords = map[string]bool{}

func init() {
	for _, w := range []string{"образец", "specimen", "sample", "зразок", "узор", "үлгі", "үлгү", "namuna",
		"намуна", "nümunə", "örnektir", "numune", "見本"} {
		specimenWords[Fold(w)] = true
	}
}

// specimenWord reports whether a folded word is a specimen mark.
func specimenWord(w string) bool { return specimenWords[w] }

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
	Values       float64 `json:"values"`        // on the summed weight of the type's field values read
	OtherShare   float64 `json:"other_share"`   // on U/R, the share of the words read that are unknown, for other
	EdgeNumber   float64 `json:"edge_number"`   // on the edge number read (1 or 0), for the types printing it
	PictureFloor float64 `json:"picture_floor"`
}

// ApplyWords revises the picture's probabilities p (per class of classes)
// with the words read on the document, and returns them renormalised. A
// class's log-probability becomes
//
//	Picture·log(p + floor) + Matched·M + Share·M/T + Values·V
//	  + OtherUnknown·log(1+U) + OtherShare·U/R (other)
//	  + NonDocRead·log(1+R) (not_document, empty)
//	  + EdgeNumber·E (the types printing the edge number)
//
// where M is the weight of the type's words read, T that of all its
// words, V that of the words read its fields print as values, U the words
// read that no template prints and no field holds, R all words read
// (U/R is 0 when nothing was read), and E is 1 when a passport's series
// and number was read along the right edge (WordScore.EdgeNumber), else 0.
func (tw *TypeWords) ApplyWords(w WordWeights, classes []string, p []float64, s WordScore) []float64 {
	return prob.Softmax(tw.Logits(w, classes, p, s))
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
			if s.Read > 0 {
				v += w.OtherShare * float64(s.Unknown) / float64(s.Read)
			}
		case doctypes.NotDocument, doctypes.Empty:
			v += w.NonDocRead * math.Log1p(float64(s.Read))
		default:
			if m := s.Matched[c]; m > 0 {
				v += w.Matched*m + w.Share*m/tw.total[c]
			}
			v += w.Values * s.Values[c]
			if s.EdgeNumber && tw.edge[c] {
				v += w.EdgeNumber
			}
		}
		z[i] = v
	}
	return z
}
