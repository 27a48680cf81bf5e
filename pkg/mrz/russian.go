package mrz

import (
	"fmt"
	"strings"
)

// rusTable is the Russian MVD table of the internal passport's MRZ (order
// 851 of 2017): one Latin letter or digit per Cyrillic letter, so names
// can be decoded back exactly.
var rusTable = map[rune]byte{
	'А': 'A', 'Б': 'B', 'В': 'V', 'Г': 'G', 'Д': 'D', 'Е': 'E', 'Ё': '2', 'Ж': 'J',
	'З': 'Z', 'И': 'I', 'Й': 'Q', 'К': 'K', 'Л': 'L', 'М': 'M', 'Н': 'N', 'О': 'O',
	'П': 'P', 'Р': 'R', 'С': 'S', 'Т': 'T', 'У': 'U', 'Ф': 'F', 'Х': 'H', 'Ц': 'C',
	'Ч': '3', 'Ш': '4', 'Щ': 'W', 'Ъ': 'X', 'Ы': 'Y', 'Ь': '9', 'Э': '6', 'Ю': '7',
	'Я': '8',
}

// rusReverse is rusTable inverted.
var rusReverse = func() map[byte]rune {
	m := make(map[byte]rune, len(rusTable))
	for k, v := range rusTable {
		m[v] = k
	}
	return m
}()

// EncodeRusName maps a Cyrillic name to the internal passport's MRZ
// characters: each letter through the MVD table, spaces and hyphens to the
// filler, anything else dropped.
func EncodeRusName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if v, ok := rusTable[r]; ok {
			b.WriteByte(v)
		} else if r == ' ' || r == '-' {
			b.WriteByte(Filler)
		}
	}
	return b.String()
}

// DecodeRusName maps internal-passport MRZ characters back to Cyrillic
// upper case; fillers become spaces. ok is false when a character has no
// Cyrillic letter in the table.
func DecodeRusName(s string) (name string, ok bool) {
	var b strings.Builder
	ok = true
	for i := 0; i < len(s); i++ {
		if s[i] == Filler {
			b.WriteByte(' ')
			continue
		}
		r, found := rusReverse[s[i]]
		if !found {
			ok = false
			continue
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String()), ok
}

// RussianInternal is what the MRZ of a Russian internal passport says.
type RussianInternal struct {
	// Surname, GivenName and Patronymic are Cyrillic, upper case (as
	// printed in the MRZ; long names may be cut at the line's end).
	Surname, GivenName, Patronymic string
	// Series is the four-digit series, Number the six-digit number.
	Series, Number string
	// BirthDate and IssueDate are YYMMDD.
	BirthDate, IssueDate string
	// Sex is "M" or "F".
	Sex string
	// Subdivision is the issuing subdivision's code, "ddd-ddd".
	Subdivision string
}

// IsRussianInternal reports whether d is the MRZ of a Russian internal
// passport (TD3 shape, document code "PN", issuer RUS).
func (d *Document) IsRussianInternal() bool {
	return d.Format == TD3 && d.DocumentCode == "PN" && d.Issuer == "RUS"
}

// Russian decodes the Russian internal passport's fields: names through
// the MVD table, the series from the number field's first three digits
// and the optional data's first digit, the issue date and subdivision code
// from the optional data. It does not require valid check digits (see
// Document.Valid).
func (d *Document) Russian() (*RussianInternal, error) {
	if !d.IsRussianInternal() {
		return nil, fmt.Errorf("mrz: not a Russian internal passport (%s %q %q)", d.Format, d.DocumentCode, d.Issuer)
	}
	l2 := d.Lines[1]
	num := l2[0:9]
	opt := l2[28:42]
	if !digits(num) || !digits(opt[0:13]) {
		return nil, fmt.Errorf("mrz: Russian internal passport: number %q or optional data %q not digits", num, opt)
	}
	r := &RussianInternal{
		Series:      num[0:3] + opt[0:1],
		Number:      num[3:9],
		BirthDate:   d.BirthDate,
		IssueDate:   opt[1:7],
		Sex:         d.Sex,
		Subdivision: opt[7:10] + "-" + opt[10:13],
	}
	var ok bool
	if r.Surname, ok = DecodeRusName(d.rawSurname); !ok {
		return nil, fmt.Errorf("mrz: surname %q is outside the Russian MRZ table", d.rawSurname)
	}
	given, patronymic, _ := strings.Cut(d.rawGiven, string(Filler))
	if r.GivenName, ok = DecodeRusName(given); !ok {
		return nil, fmt.Errorf("mrz: given name %q is outside the Russian MRZ table", given)
	}
	if r.Patronymic, ok = DecodeRusName(patronymic); !ok {
		return nil, fmt.Errorf("mrz: patronymic %q is outside the Russian MRZ table", patronymic)
	}
	return r, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}
