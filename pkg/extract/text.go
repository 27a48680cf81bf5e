package extract

import (
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"docsuite/pkg/mrz"
	"docsuite/pkg/ocr"
)

// The text of visual fields: formats, caption filtering, and comparison
// with the machine-readable zone.

// abbreviations fixes the abbreviations in places and authorities
// (ГОР., ОБЛ., ПОС., ДЕР., С.): Tesseract reads their dot as a comma or
// drops it, and the Г of ГОР as Т. Standing alone, ГОР, ОБЛ, ПОС and ДЕР
// can only be abbreviations, so a missing dot is put back; С and ТОР are
// changed only when read with a comma or a dot (С is also a preposition).
func abbreviations(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		stem := strings.TrimRight(w, ".,")
		punct := stem != w
		switch {
		case stem == "ГОР" || stem == "ОБЛ" || stem == "ПОС" || stem == "ДЕР":
			words[i] = stem + "."
		case stem == "ТОР" && punct:
			words[i] = "ГОР."
		case stem == "С" && punct:
			words[i] = "С."
		}
	}
	return strings.Join(words, " ")
}

// placeName is the text of a place of birth (see authorityText).
func placeName(s string) string { return authorityText(s) }

// name is the text of a name field: characters no name holds (a dot or
// comma read after it, a digit: the block read whole has the places'
// character set) part words, words of one letter, which no name has (the
// edge of the portrait's frame or a caption read as Г or П), are dropped,
// and the short i fixed at the ends of words.
func name(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(nameChars, r) {
			return r
		}
		return ' '
	}, s)
	var words []string
	for _, w := range strings.Fields(s) {
		if utf8.RuneCountInString(strings.Trim(w, "-")) > 1 {
			words = append(words, w)
		}
	}
	s = shortIAtEnds(strings.Trim(strings.Join(words, " "), " -"), true)
	if len([]rune(s)) < 2 {
		return ""
	}
	return s
}

// authorityText is text with the short i fixed at the ends of words
// (НИЖНИЙ, КАЛУЖСКОЙ), the abbreviations' dots (ГОР., ОБЛ.) and no stop
// after its last word when that is no abbreviation, for places and
// authorities; "" when it holds no word (see hasWord).
func authorityText(s string) string {
	if !hasWord(s) {
		return ""
	}
	return noFinalStop(abbreviations(shortIAtEnds(text(s), false)))
}

// hasWord reports whether s holds a run of three letters or more: every
// place and authority names one (УФА, МВД), while digits read off
// another document's dates (20 02 2012) or specks of a blank page read
// as letters (Е Е ИИ) hold none.
func hasWord(s string) bool {
	run := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			run = 0
			continue
		}
		if run++; run >= 3 {
			return true
		}
	}
	return false
}

// longestAbbreviation is the most letters an abbreviation closing a place
// or an authority has (ОБЛ., РЕСП., Р-НА): a longer last word is a whole
// word.
const longestAbbreviation = 4

// noFinalStop drops the dot or comma read after the last word of s when
// that word is longer than any abbreviation (ГОР. МОСКВА., ОТДЕЛ ПО
// ВОПРОСАМ МИГРАЦИИ.): such a word is never abbreviated, and the mark is
// a speck of the paper read as one. An abbreviation keeps its dot.
func noFinalStop(s string) string {
	stem := strings.TrimRight(s, ".,")
	if stem == s {
		return s
	}
	last := stem[strings.LastIndexByte(stem, ' ')+1:]
	if utf8.RuneCountInString(last) <= longestAbbreviation {
		return s
	}
	return stem
}

// shortIAtEnds applies shortIAtEnd to each word of s and joins the words
// with single spaces.
func shortIAtEnds(s string, person bool) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = shortIAtEnd(w, person)
	}
	return strings.Join(words, " ")
}

// shortIAtEnd writes Й for the И that Tesseract reads at the end of a
// word after a vowel (АНДРЕИ, НИКОЛАИ, КАЛУЖСКОИ): Russian spelling ends
// no word in a vowel other than И followed by И, so the letter can only be
// Й without its breve. A final ИИ is Й in a name (ЮРИИ, ЕВГЕНИИ); in a
// place it is also a noun's genitive (РОССИИ, АРМЕНИИ), so there only
// adjectives' endings are changed (НИЖНИИ, ВЕЛИКИИ: after К, Г, Х, Ж, Ч,
// Щ, or ЖН and ХН). Inside a word both letters are spelled (РАИСА,
// МИХАЙЛОВ) and nothing is changed.
func shortIAtEnd(w string, person bool) string {
	r := []rune(w)
	n := len(r)
	if n < 3 || r[n-1] != 'И' {
		return w
	}
	prev := r[n-2]
	switch {
	case strings.ContainsRune("АЕЁОУЫЭЮЯ", prev):
	case prev == 'И' && person:
	case prev == 'И' && n >= 4 && strings.ContainsRune("КГХЖЧЩ", r[n-3]):
	case prev == 'И' && n >= 5 && r[n-3] == 'Н' && strings.ContainsRune("ЖХ", r[n-4]):
	default:
		return w
	}
	r[n-1] = 'Й'
	return string(r)
}

func text(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, " ,-")
	if len([]rune(s)) < 3 {
		return ""
	}
	return s
}

func sexText(s string) string {
	switch {
	case strings.Contains(s, "МУЖ"):
		return "МУЖ."
	case strings.Contains(s, "ЖЕН"):
		return "ЖЕН."
	}
	return ""
}

// earliestYear is the earliest year of a passport's date (a birth date
// of the oldest holders): an earlier one is a misreading.
const earliestYear = 1900

// date is a date as dd.mm.yyyy; "" when the digits read are no date of
// the calendar (a month 42, a 31 February, a year before earliestYear),
// which only a misreading gives: the field is then read another way or
// left out, never answered impossible.
func date(s string) string {
	m := reDate.FindStringSubmatch(strings.ReplaceAll(s, " ", ""))
	if m == nil {
		return ""
	}
	d := m[1] + "." + m[2] + "." + m[3]
	if t, err := time.Parse("02.01.2006", d); err != nil || t.Year() < earliestYear {
		return ""
	}
	return d
}

func code(s string) string {
	m := reCode.FindStringSubmatch(strings.ReplaceAll(s, " ", ""))
	if m == nil {
		return ""
	}
	return m[1] + "-" + m[2]
}

func number(s string) string {
	m := reNum.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[1] + m[2] + " " + m[3]
}

// rusNameLine writes the internal passport's first zone line from the
// chosen names; ok is false when the surname or given name is missing.
func rusNameLine(out Fields) (string, bool) {
	sur, given, pat := out["surname"].Text, out["first_name"].Text, out["other_names"].Text
	if sur == "" || given == "" {
		return "", false
	}
	names := mrz.EncodeRusName(given)
	if pat != "" {
		names += "<" + mrz.EncodeRusName(pat)
	}
	l := "PNRUS" + mrz.EncodeRusName(sur) + "<<" + names
	if len(l) > 44 {
		l = l[:44]
	}
	return l + strings.Repeat("<", 44-len(l)), true
}

// alike maps characters the zone's recogniser confuses to one class.
var alike = map[byte]byte{'8': 'B', '0': 'O', 'Q': 'O', 'D': 'O', '1': 'I', 'L': 'I', '5': 'S', '2': 'Z', '6': 'G', '7': 'T', '4': 'A'}

// lookAlike reports whether two zone strings are equal up to look-alike
// characters.
func lookAlike(a, b string) bool {
	if len(a) != len(b) || a == "" {
		return false
	}
	for i := 0; i < len(a); i++ {
		ca, cb := a[i], b[i]
		if c, ok := alike[ca]; ok {
			ca = c
		}
		if c, ok := alike[cb]; ok {
			cb = c
		}
		if ca != cb {
			return false
		}
	}
	return true
}

// sameName compares names with Ё and Е taken as one letter (print often
// drops the diaeresis the zone keeps).
func sameName(a, b string) bool {
	f := func(s string) string { return strings.ReplaceAll(s, "Ё", "Е") }
	return f(a) == f(b)
}

// valueWords keeps the words at least minHeight times as tall as the
// median confident word and read with at least minConf confidence (or
// made of five or more digits, dots and hyphens: dates and codes, which
// Tesseract often reads right but scores low; or the sex's МУЖ. or ЖЕН.,
// which it scores near zero when the caption above touches them), and
// returns their text and the lines that still hold words.
func valueWords(lines []ocr.Line, minHeight, minConf float64) (string, []ocr.Line) {
	ref, ok := refHeight(lines, minConf)
	if !ok {
		return "", nil
	}
	var words []string
	var kept []ocr.Line
	for _, l := range lines {
		var ws []ocr.Word
		for _, w := range l.Words {
			if float64(wordHeight(w)) >= minHeight*ref && (w.Confidence >= minConf || numericWord(w)) {
				ws = append(ws, w)
				words = append(words, w.Text)
			}
		}
		if len(ws) > 0 {
			l.Words = ws
			kept = append(kept, l)
		}
	}
	return strings.Join(words, " "), kept
}

// wordHeight is a word's height in pixels.
func wordHeight(w ocr.Word) int { return w.Coords[3][1] - w.Coords[0][1] }

// numericWord reports whether w is made of five or more digits, dots and
// hyphens (a date, a code) or is the sex as printed: words Tesseract
// often reads right but scores low.
func numericWord(w ocr.Word) bool {
	return (len(w.Text) >= 5 && strings.Trim(w.Text, "0123456789.-") == "") || sexWord(w.Text)
}

// refHeight is the height of a value's words among lines: the median of
// the confident (or numeric) words of two characters or more. A single
// letter is most often the edge of the portrait's frame or of a caption
// read as Г or П, taller than the value, and with the value alone beside
// it the median was its height (ЮДИНА then fell under the caption's
// height limit); single letters count only when nothing else does. ok
// is false when no word is sure.
func refHeight(lines []ocr.Line, minConf float64) (float64, bool) {
	var hs, singles []int
	for _, l := range lines {
		for _, w := range l.Words {
			if w.Confidence >= minConf || numericWord(w) {
				if utf8.RuneCountInString(w.Text) < 2 {
					singles = append(singles, wordHeight(w))
				} else {
					hs = append(hs, wordHeight(w))
				}
			}
		}
	}
	if len(hs) == 0 {
		hs = singles
	}
	if len(hs) == 0 {
		return 0, false
	}
	sort.Ints(hs)
	return float64(hs[len(hs)/2]), true
}

// sexWord reports whether s is the sex as the passport prints it (МУЖ.
// or ЖЕН., the dot possibly lost): no caption nor other value reads so.
func sexWord(s string) bool {
	s = strings.TrimSuffix(s, ".")
	return s == "МУЖ" || s == "ЖЕН"
}
