package mrz

import "strings"

// Look-alike characters the recogniser confuses, by the kind a position
// requires.
var (
	toDigit  = map[byte]byte{'O': '0', 'Q': '0', 'D': '0', 'I': '1', 'L': '1', 'Z': '2', 'S': '5', 'G': '6', 'B': '8', 'T': '7'}
	toLetter = map[byte]byte{'0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B', '7': 'T', '4': 'A'}
	// The Russian table writes some letters as 2-4 and 6-9; 0, 1 and 5
	// are never in its names.
	toRusLetter = map[byte]byte{'0': 'O', '1': 'I', '5': 'S'}
)

// kinds returns, for each line of the layout, a string with 'n' where a
// digit (or filler) is required, 'a' where a letter (or filler) is, 'r'
// where a Russian internal passport's name character is (letters and the
// digits 2-4 and 6-9 its table uses), 'x' where the sex is (M, F, X or a
// filler: no check digit covers it), 'f' where only a filler can stand
// (blurred fillers read as 4 or 6 there are put back), and '*' where
// anything goes.
func kinds(f Format, lines []string) []string {
	rep := func(c byte, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = c
		}
		return string(b)
	}
	switch f {
	case TD1:
		return []string{
			"aaaaa" + rep('*', 9) + "n" + rep('*', 15),
			"nnnnnnn" + "x" + "nnnnnnn" + "aaa" + rep('*', 11) + "n",
			rep('a', 30),
		}
	case TD2:
		return []string{"aaaaa" + rep('a', 31), rep('*', 9) + "n" + "aaa" + "nnnnnnn" + "x" + "nnnnnnn" + rep('*', 7) + "n"}
	}
	if len(lines[0]) >= 5 && asLetters(lines[0][:5]) == "PNRUS" {
		// Series and number, the series' last digit, issue date and
		// subdivision code are digits; the names use digits for letters.
		// The expiry date and its check digit are always fillers, and so
		// is the optional data's last character.
		return []string{"aaaaa" + rep('r', 39), rep('n', 10) + "aaa" + "nnnnnnn" + "x" + "fffffff" + rep('n', 13) + "fnn"}
	}
	return []string{"aaaaa" + rep('a', 39), rep('*', 9) + "n" + "aaa" + "nnnnnnn" + "x" + "nnnnnnn" + rep('*', 14) + "nn"}
}

// asLetters returns s with its digits read as the letters they look like
// (a code such as "PNRU5" read with a look-alike).
func asLetters(s string) string {
	b := []byte(s)
	for i, c := range b {
		if v, ok := toLetter[c]; ok {
			b[i] = v
		}
	}
	return string(b)
}

// clearStrays turns into fillers the short groups of characters (one or
// two) that follow a run of three or more fillers on a name line (specks
// and blurred fillers read as letters): the names' parts are parted by
// one or two fillers, and after three the fillers run to the line's end.
func clearStrays(line string) (string, int) {
	b := []byte(line)
	changed := 0
	for i := 3; i < len(b); i++ {
		if b[i] == Filler || b[i-1] != Filler || b[i-2] != Filler || b[i-3] != Filler {
			continue
		}
		j := i
		for j < len(b) && b[j] != Filler {
			j++
		}
		if j-i > 2 {
			continue
		}
		for k := i; k < j; k++ {
			b[k] = Filler
			changed++
		}
	}
	return string(b), changed
}

// clearTail turns into fillers the end of a name line made only of
// fillers and the letters blurred fillers are read as (C, K) when it does
// not end in a filler: a name is followed by fillers to the line's end, so
// a line ending in C or K after such a run ends in misread fillers.
func clearTail(line string) (string, int) {
	i := len(line)
	for i > 0 && strings.IndexByte("CK<", line[i-1]) >= 0 {
		i--
	}
	if len(line)-i < 4 || line[len(line)-1] == Filler || !strings.Contains(line[i:], "<") {
		return line, 0
	}
	changed := 0
	for j := i; j < len(line); j++ {
		if line[j] != Filler {
			changed++
		}
	}
	return line[:i] + strings.Repeat("<", len(line)-i), changed
}

// fixTypes replaces look-alikes that cannot stand where they are (a
// letter in a date, a digit in a country code) and counts the changes.
func fixTypes(f Format, lines []string) ([]string, int) {
	k := kinds(f, lines)
	out := make([]string, len(lines))
	changed := 0
	for i, l := range lines {
		b := []byte(l)
		for j := range b {
			if j >= len(k[i]) || b[j] == Filler {
				continue
			}
			switch k[i][j] {
			case 'n':
				if v, ok := toDigit[b[j]]; ok {
					b[j] = v
					changed++
				}
			case 'a':
				if v, ok := toLetter[b[j]]; ok {
					b[j] = v
					changed++
				}
			case 'r':
				if v, ok := toRusLetter[b[j]]; ok {
					b[j] = v
					changed++
				}
			case 'f':
				b[j] = Filler
				changed++
			}
		}
		out[i] = string(b)
	}
	name := nameLine(f)
	var c, c2 int
	out[name], c = clearStrays(out[name])
	out[name], c2 = clearTail(out[name])
	return out, changed + c + c2
}

// repairChecks tries single look-alike substitutions in the fields whose
// check digit fails (document number and optional data hold both letters
// and digits, so only their digits can say which is meant) and returns
// the first document that comes out valid, with the number of changes.
func repairChecks(d *Document) (*Document, int) {
	if d.Format == TD1 {
		return nil, 0
	}
	l1, l2 := d.Lines[0], []byte(d.Lines[1])
	spans := [][2]int{{0, 9}}
	if d.Format == TD3 {
		spans = append(spans, [2]int{28, 42})
	} else {
		spans = append(spans, [2]int{28, 35})
	}
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			orig := l2[i]
			for _, alt := range [2]map[byte]byte{toDigit, toLetter} {
				v, ok := alt[orig]
				if !ok {
					continue
				}
				l2[i] = v
				if nd, err := Parse(l1, string(l2)); err == nil && nd.Valid() {
					return nd, 1
				}
				l2[i] = orig
			}
		}
	}
	return nil, 0
}
