package mrz

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Format is an MRZ layout of ICAO 9303.
type Format int

// The three layouts. The Russian internal passport uses TD3's shape.
const (
	TD1 Format = 1 + iota // ID-1 cards: 3 lines of 30
	TD2                   // ID-2 cards: 2 lines of 36
	TD3                   // passports: 2 lines of 44
)

func (f Format) String() string {
	switch f {
	case TD1:
		return "TD1"
	case TD2:
		return "TD2"
	case TD3:
		return "TD3"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Shape returns the number of lines and the line length of the layout.
func (f Format) Shape() (lines, length int) {
	switch f {
	case TD1:
		return 3, 30
	case TD2:
		return 2, 36
	case TD3:
		return 2, 44
	}
	return 0, 0
}

// CheckDigit is one verified check digit: the field it covers, the digit
// printed and the digit computed.
type CheckDigit struct {
	Field    string
	Printed  byte
	Computed byte
}

// OK reports whether the printed digit matches. A field left empty
// (all fillers) may carry the filler or 0 as its check digit.
func (c CheckDigit) OK() bool { return c.Printed == c.Computed }

// Document is a parsed machine-readable zone. Text fields have their
// trailing fillers removed; names have fillers turned into spaces.
type Document struct {
	Format Format
	// Lines are the zone's lines as parsed.
	Lines []string
	// DocumentCode is the first two characters without fillers ("P",
	// "PN", "ID", "I", "AC", "V", ...).
	DocumentCode string
	// Issuer and Nationality are three-letter ICAO codes (fillers removed,
	// so "D" for Germany).
	Issuer, Nationality string
	// Surname and GivenNames are the primary and secondary identifiers.
	Surname, GivenNames string
	// Number is the document number.
	Number string
	// BirthDate and ExpiryDate are YYMMDD as printed ('<' where unknown).
	BirthDate, ExpiryDate string
	// Sex is "M", "F" or "<" (unspecified).
	Sex string
	// Optional is the optional data (TD3: personal number; TD1: line 1's
	// optional data); Optional2 is TD1's second optional field.
	Optional, Optional2 string
	// Checks lists every check digit of the layout, the composite last.
	Checks []CheckDigit

	rawSurname, rawGiven string
}

// Valid reports whether every check digit matches.
func (d *Document) Valid() bool {
	for _, c := range d.Checks {
		if !c.OK() {
			return false
		}
	}
	return len(d.Checks) > 0
}

// Failed lists the fields whose check digit does not match.
func (d *Document) Failed() []string {
	var f []string
	for _, c := range d.Checks {
		if !c.OK() {
			f = append(f, c.Field)
		}
	}
	return f
}

// ErrShape reports lines that are not one of the three layouts, or that
// hold characters outside A-Z, 0-9 and '<'.
var ErrShape = errors.New("mrz: lines are not a TD1, TD2 or TD3 zone")

// Parse parses the lines of one zone (3×30, 2×36 or 2×44 characters of
// A-Z, 0-9 and '<'), top line first. It fails only on the shape; check
// digits are reported in Document.Checks (see Valid).
func Parse(lines ...string) (*Document, error) {
	for _, l := range lines {
		for _, r := range l {
			if !IsMRZChar(r) {
				return nil, fmt.Errorf("%w: %q has %q", ErrShape, l, r)
			}
		}
	}
	switch {
	case len(lines) == 3 && len(lines[0]) == 30 && len(lines[1]) == 30 && len(lines[2]) == 30:
		return parseTD1(lines), nil
	case len(lines) == 2 && len(lines[0]) == 36 && len(lines[1]) == 36:
		return parseTD23(TD2, lines), nil
	case len(lines) == 2 && len(lines[0]) == 44 && len(lines[1]) == 44:
		return parseTD23(TD3, lines), nil
	}
	lens := make([]int, len(lines))
	for i, l := range lines {
		lens[i] = len(l)
	}
	return nil, fmt.Errorf("%w: %d lines of lengths %v", ErrShape, len(lines), lens)
}

func trim(s string) string { return strings.TrimRight(s, "<") }

// names splits the name field at the first "<<" into surname and given
// names, and returns them raw (fillers kept inside) and as text.
func (d *Document) names(field string) {
	field = trim(field)
	sur, given, _ := strings.Cut(field, "<<")
	d.rawSurname, d.rawGiven = sur, trim(given)
	d.Surname = strings.TrimSpace(strings.ReplaceAll(sur, "<", " "))
	d.GivenNames = strings.TrimSpace(strings.Join(strings.Fields(strings.ReplaceAll(given, "<", " ")), " "))
}

func check(field, s string, printed byte) CheckDigit {
	c := CheckDigit{Field: field, Printed: printed, Computed: Check(s)}
	// A field left empty may carry the filler or 0 as its digit.
	if strings.Trim(s, "<") == "" && (printed == '<' || printed == '0') {
		c.Computed = printed
	}
	return c
}

func parseTD23(f Format, lines []string) *Document {
	l1, l2 := lines[0], lines[1]
	n := len(l2)
	d := &Document{
		Format:       f,
		Lines:        []string{l1, l2},
		DocumentCode: trim(l1[0:2]),
		Issuer:       trim(l1[2:5]),
		Number:       trim(l2[0:9]),
		Nationality:  trim(l2[10:13]),
		BirthDate:    l2[13:19],
		Sex:          l2[20:21],
		ExpiryDate:   l2[21:27],
	}
	d.names(l1[5:])
	d.Checks = []CheckDigit{
		check("document_number", l2[0:9], l2[9]),
		check("birth_date", l2[13:19], l2[19]),
		check("expiry_date", l2[21:27], l2[27]),
	}
	if f == TD3 {
		d.Optional = trim(l2[28:42])
		d.Checks = append(d.Checks, check("optional_data", l2[28:42], l2[42]),
			check("composite", l2[0:10]+l2[13:20]+l2[21:43], l2[43]))
	} else {
		d.Optional = trim(l2[28:35])
		d.Checks = append(d.Checks, check("composite", l2[0:10]+l2[13:20]+l2[21:35], l2[n-1]))
	}
	return d
}

func parseTD1(lines []string) *Document {
	l1, l2, l3 := lines[0], lines[1], lines[2]
	d := &Document{
		Format:       TD1,
		Lines:        []string{l1, l2, l3},
		DocumentCode: trim(l1[0:2]),
		Issuer:       trim(l1[2:5]),
		Number:       trim(l1[5:14]),
		Optional:     trim(l1[15:30]),
		BirthDate:    l2[0:6],
		Sex:          l2[7:8],
		ExpiryDate:   l2[8:14],
		Nationality:  trim(l2[15:18]),
		Optional2:    trim(l2[18:29]),
	}
	d.names(l3)
	d.Checks = []CheckDigit{
		check("document_number", l1[5:14], l1[14]),
		check("birth_date", l2[0:6], l2[6]),
		check("expiry_date", l2[8:14], l2[14]),
		check("composite", l1[5:30]+l2[0:7]+l2[8:15]+l2[18:29], l2[29]),
	}
	return d
}

// Date turns a YYMMDD field into a date. The century is chosen so that
// the date is not after now (birth and issue dates) or, with future set,
// lies within 50 years after now (expiry dates).
func Date(yymmdd string, now time.Time, future bool) (time.Time, error) {
	if len(yymmdd) != 6 || !digits(yymmdd) {
		return time.Time{}, fmt.Errorf("mrz: date %q is not YYMMDD", yymmdd)
	}
	yy := int(yymmdd[0]-'0')*10 + int(yymmdd[1]-'0')
	mm := int(yymmdd[2]-'0')*10 + int(yymmdd[3]-'0')
	dd := int(yymmdd[4]-'0')*10 + int(yymmdd[5]-'0')
	year := now.Year()/100*100 + yy
	if future && year < now.Year()-50 {
		year += 100
	}
	at := func(year int) time.Time { return time.Date(year, time.Month(mm), dd, 0, 0, 0, 0, time.UTC) }
	t := at(year)
	if !future && t.After(now) {
		// Later than now, even later this year: the century before.
		t = at(year - 100)
	}
	if t.Month() != time.Month(mm) || t.Day() != dd || mm == 0 || dd == 0 {
		return time.Time{}, fmt.Errorf("mrz: date %q does not exist", yymmdd)
	}
	return t, nil
}
