package extract

import (
	"strings"
	"unicode/utf8"
)

// What on a crop shows that it is a passport's main spread. A client may
// send any image as passport_main (mode=recognize_only names the type; a
// classifier may be wrong): a driving licence, a SNILS, a photo of a
// bird. Read as a passport, such a page gives whatever its regions hold:
// the name fields, which no format constrains beyond the alphabet, came
// back as words of the other document (ПЕНСИОННОГО СТРАХОВАНИЯ from a
// SNILS, ФЕДЕРАЦИЯ from a driving licence), and page_number was "2-3" at
// 0.99 on every page. The extractor therefore weighs the signs of the
// form before it answers (judge).
//
// The form's captions (Фамилия, Дата выдачи) are no usable sign: printed
// about 2 mm tall beside the values, the blocks' reading drops or
// garbles them on real passports, and finds caption words on other
// documents (a birth certificate's МЕСТО РОЖДЕНИЯ, a vehicle passport's
// ПАСПОРТ).

// signs are what was seen of the passport's main spread on a crop.
type signs struct {
	// zone is set when a Russian internal passport's machine-readable
	// zone was read (PNRUS, its check digits holding or not).
	zone bool
	// formatted counts the fields answered in a format the spread prints
	// in that place (formattedFields).
	formatted int
	// patronymic is set when other_names reads as a patronymic
	// (patronymic).
	patronymic bool
}

// Levels of the signs, from none to sure.
const (
	noSign = iota
	weakSign
	sureSign
)

// level is how surely s show a main spread: sure with a zone or two
// fields of the spread's formats (the series and number up the edge and
// a date, a date and the subdivision code, ...); weak with one such
// field or a patronymic where the spread prints it (other documents print
// a date or a full name too); none otherwise.
func (s signs) level() int {
	switch {
	case s.zone || s.formatted >= 2:
		return sureSign
	case s.formatted == 1 || s.patronymic:
		return weakSign
	}
	return noSign
}

// formattedFields are the fields of passport_main whose answer is a sign
// of the form: each passed a format of its own on its own region.
var formattedFields = []string{"series_and_number", "sex", "subdivision_code", "date_of_birth", "date_of_issue"}

// countFormatted is how many of formattedFields out holds.
func countFormatted(out Fields) int {
	n := 0
	for _, f := range formattedFields {
		if _, ok := out[f]; ok {
			n++
		}
	}
	return n
}

// patronymicEndings end Russian patronymics (ИВАНОВИЧ, ИЛЬИЧ, ПЕТРОВНА,
// НИКИТИЧНА).
var patronymicEndings = []string{"ИЧ", "ВНА", "ИЧНА"}

// patronymic reports whether s, a name read, reads as a patronymic: a
// last word of five letters or more with a patronymic's ending, or the
// Turkic ОГЛЫ or КЫЗЫ after a name (АЛИ ОГЛЫ).
func patronymic(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	if len(words) > 1 && (last == "ОГЛЫ" || last == "КЫЗЫ") {
		return true
	}
	if utf8.RuneCountInString(last) < 5 {
		return false
	}
	for _, e := range patronymicEndings {
		if strings.HasSuffix(last, e) {
			return true
		}
	}
	return false
}

// weakCap is the most confidence a field is answered with when the crop
// shows a main spread only weakly: the unsure band (below 0.4), so that
// a client taking only sure fields takes none of them.
const weakCap = 0.3

// judge is out as answered for a crop on which a Russian zone was seen
// or not, its other signs counted on out itself (after the dates later
// than the day of reading are left out): as read when they are sure;
// every field (page_number too) at most weakCap when they are weak;
// nothing when there are none, for no value read on such a crop is the
// passport's (the page is not one: a bird's photo, a bank card, a SNILS,
// or a passport too spoiled to read anything that vouches for its
// values).
func judge(out Fields, zone bool) Fields {
	sg := signs{zone: zone, formatted: countFormatted(out), patronymic: patronymic(out["other_names"].Text)}
	switch sg.level() {
	case sureSign:
		return out
	case weakSign:
		for k, f := range out {
			f.Confidence = min(f.Confidence, weakCap)
			out[k] = f
		}
		return out
	}
	return Fields{}
}
