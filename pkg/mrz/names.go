package mrz

import (
	"sort"
	"strings"
)

// nameLine is the index of the line holding the names in layout f.
func nameLine(f Format) int {
	if f == TD1 {
		return 2
	}
	return 0
}

// nameStart is where the names begin on the name line of layout f (after
// the document code and the issuing state on TD2 and TD3).
func nameStart(f Format) int {
	if f == TD1 {
		return 0
	}
	return 5
}

// Thresholds of refillNames. A blurred filler (motion blur on a phone
// photo doubles its chevron) is read as a letter, most often C, K or E,
// the same few letters along one line and with less confidence than the
// line's real letters; the recogniser gives the filler itself next to no
// probability there, so only the line's shape can put it back.
const (
	// tailLetters is the least count of letters in a tail of misread
	// fillers, tailKinds the most distinct letters in it.
	tailLetters, tailKinds = 4, 3
	// tailSure is the count of letters from which a tail is refilled
	// however confidently it was read (blurred fillers read C at 0.97);
	// a shorter one only when its letters' mean probability is under
	// unsure: the line's real letters are read at 0.95 and more where its
	// fillers are misread.
	tailSure = 8
	unsure   = 0.9
)

// refillNames puts back, on the name line of layout f, the fillers that
// the recogniser read as letters. probs are the recognition
// probabilities of the line's characters (1 for a filler the grid put
// back). It returns the line and the number of letters turned into
// fillers. Three places are repaired, each only where the line's shape
// says fillers must be:
//   - the tail: after the names, fillers run to the line's end. A
//     suffix made of at most three distinct letters, each but one seen at
//     least twice (CCKKCCKCCK, EEEEEEEE), is misread fillers when it
//     holds no word of three letters after a filler and at least eight
//     letters, or four read with little confidence. Names do not repeat
//     so few letters so often.
//   - the primary identifier's end: a line whose names hold no "<<" lost
//     it; the first pair of characters among the letters the tail was
//     misread as (and C, K, E) read with little confidence is put back.
//   - the patronymic's start on a Russian internal passport (PNRUS): a
//     secondary part ending as a patronymic ends (VI3, VNA, I3NA, VIS) with no
//     '<' holds the given name and the patronymic run together; its least
//     sure character among those letters (and C, K, E) becomes the
//     filler; a last part ending OVIS or EVIS ends in VI3 (-вич).
func refillNames(f Format, line string, probs []float64) (string, int) {
	start := nameStart(f)
	if len(line) != len(probs) || len(line) <= start+2 {
		return line, 0
	}
	b := []byte(line)
	changed := 0
	end, misread := fillerTail(b, probs, start)
	for i := end; i < len(b); i++ {
		if b[i] != Filler {
			b[i] = Filler
			changed++
		}
	}
	set := misread + "CKE"
	names := string(b[start:end])
	if f != TD1 && b[0] == 'P' && !strings.Contains(strings.TrimRight(names, "<"), "<<") {
		if i, ok := separator(b, probs, start+2, end, set); ok {
			for _, k := range []int{i, i + 1} {
				if b[k] != Filler {
					b[k] = Filler
					changed++
				}
			}
		}
	}
	if f == TD3 && string(b[:5]) == "PNRUS" {
		changed += splitPatronymic(b, probs, start, end, set)
		changed += patronymicEnd(b, start)
	}
	return string(b), changed
}

// patronymicEnd writes back the 3 (Ч) of a male patronymic's -вич read as
// the S it resembles on a PNRUS name line b: a patronymic (the part after
// the given name) ending in OVIS or EVIS (no Russian patronymic ends in
// -вис) ends in VI3. It returns 1 when it did.
func patronymicEnd(b []byte, start int) int {
	names := strings.TrimRight(string(b[start:]), "<")
	sep := strings.Index(names, "<<")
	if sep < 0 || !strings.Contains(names[sep+2:], "<") || !(strings.HasSuffix(names, "OVIS") || strings.HasSuffix(names, "EVIS")) {
		return 0
	}
	b[start+len(names)-1] = '3'
	return 1
}

// fillerTail finds the tail of misread fillers of the name line b (names
// from start): it returns where the fillers begin (len(b) when no tail is
// found) and the distinct letters read for them.
func fillerTail(b []byte, probs []float64, start int) (int, string) {
	count := map[byte]int{}
	i := len(b)
	for i > start {
		c := b[i-1]
		if c != Filler {
			if _, seen := count[c]; !seen && len(count) == tailKinds {
				break
			}
			count[c]++
		}
		i--
	}
	// Letters seen once at the tail's start are the last name's end.
	for i < len(b) && (b[i] == Filler || count[b[i]] == 1) {
		if b[i] != Filler {
			delete(count, b[i])
		}
		i++
	}
	singles := 0
	for _, c := range count {
		if c == 1 {
			singles++
		}
	}
	if singles > 1 {
		return len(b), ""
	}
	n, sum := 0, 0.0
	for k := i; k < len(b); k++ {
		if b[k] == Filler {
			continue
		}
		n++
		sum += probs[k]
		if k > 0 && b[k-1] == Filler && isName(b[k:]) {
			return len(b), ""
		}
	}
	if n < tailLetters || (n < tailSure && sum/float64(n) >= unsure) {
		return len(b), ""
	}
	letters := make([]byte, 0, len(count))
	for c := range count {
		letters = append(letters, c)
	}
	sort.Slice(letters, func(a, c int) bool { return letters[a] < letters[c] })
	return i, string(letters)
}

// isName reports whether the word at the start of b (up to a filler) is
// a name's part: three letters or more, none of them making up more than
// half of it (ANNA of IVANOVA<<ANNA<<<, however few letters it repeats;
// not CCCC or KKKKK2, blurred fillers).
func isName(b []byte) bool {
	n := 0
	count := map[byte]int{}
	most := 0
	for n < len(b) && b[n] != Filler {
		count[b[n]]++
		most = max(most, count[b[n]])
		n++
	}
	return n >= 3 && 2*most <= n
}

// separator finds the first pair of neighbouring characters between from
// and end, each a filler or one of set's letters, not both fillers, whose
// letters were read with a mean probability under unsure.
func separator(b []byte, probs []float64, from, end int, set string) (int, bool) {
	in := func(c byte) bool { return c == Filler || strings.IndexByte(set, c) >= 0 }
	for i := from; i+1 < end-1; i++ {
		if !in(b[i]) || !in(b[i+1]) || (b[i] == Filler && b[i+1] == Filler) {
			continue
		}
		sum, n := 0.0, 0
		for _, k := range []int{i, i + 1} {
			if b[k] != Filler {
				sum += probs[k]
				n++
			}
		}
		if sum/float64(n) < unsure {
			return i, true
		}
	}
	return 0, false
}

// patronymicEnds are the MVD table's endings of Russian patronymics
// (-ович, -евич, -овна, -евна, -ична, -ич), and -вич with its 3 read as
// the S it resembles (patronymicEnd writes the 3 back).
var patronymicEnds = []string{"VI3", "VNA", "I3NA", "I3", "VIS"}

// splitPatronymic puts back the filler between the given name and the
// patronymic of a PNRUS name line b when they are read run together (see
// refillNames) and returns 1 when it did.
func splitPatronymic(b []byte, probs []float64, start, end int, set string) int {
	names := string(b[start:end])
	sep := strings.Index(names, "<<")
	if sep < 0 {
		return 0
	}
	from := start + sep + 2
	second := strings.TrimRight(string(b[from:end]), "<")
	if strings.Contains(second, "<") || len(second) < 9 {
		return 0
	}
	patronymic := false
	for _, e := range patronymicEnds {
		patronymic = patronymic || strings.HasSuffix(second, e)
	}
	if !patronymic {
		return 0
	}
	best := -1
	for k := from + 2; k < from+len(second)-3; k++ {
		if strings.IndexByte(set, b[k]) >= 0 && (best < 0 || probs[k] < probs[best]) {
			best = k
		}
	}
	if best < 0 {
		return 0
	}
	b[best] = Filler
	return 1
}
