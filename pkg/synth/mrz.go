package synth

import (
	"fmt"
	"strings"

	"docsuite/pkg/mrz"
)

// MRZInput is what a machine-readable zone encodes.
type MRZInput struct {
	DocCode     string // "P<", "PN", "ID", "I<", "AC"
	Issuer      string // ICAO state code, e.g. "RUS"
	Surname     string // Latin (or internal-table) name parts
	Given       string
	Number      string // document number, up to 9 characters
	Nationality string
	Birth       string // YYMMDD
	Sex         byte   // 'M', 'F' or '<'
	Expiry      string // YYMMDD or "" for none
	Optional    string // personal number / optional data
}

func fit(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s + strings.Repeat("<", n-len(s))
}

func nameField(surname, given string, n int) string {
	s := surname + "<<" + given
	return fit(s, n)
}

func check(s string) string { return string(MRZCheck(s)) }

// TD3 returns the two 44-character lines of a passport data page.
func TD3(in MRZInput) [2]string {
	l1 := fit(in.DocCode, 2) + fit(in.Issuer, 3) + nameField(in.Surname, in.Given, 39)
	num := fit(in.Number, 9)
	exp := fit(in.Expiry, 6)
	opt := fit(in.Optional, 14)
	l2 := num + check(num) + fit(in.Nationality, 3) + in.Birth + check(in.Birth) + string(in.Sex) +
		exp + check(exp) + opt + check(opt)
	comp := l2[0:10] + l2[13:20] + l2[21:43]
	return [2]string{l1, l2 + check(comp)}
}

// TD2 returns the two 36-character lines of a TD2 card.
func TD2(in MRZInput) [2]string {
	l1 := fit(in.DocCode, 2) + fit(in.Issuer, 3) + nameField(in.Surname, in.Given, 31)
	num := fit(in.Number, 9)
	exp := fit(in.Expiry, 6)
	l2 := num + check(num) + fit(in.Nationality, 3) + in.Birth + check(in.Birth) + string(in.Sex) +
		exp + check(exp) + fit(in.Optional, 7)
	comp := l2[0:10] + l2[13:20] + l2[21:35]
	return [2]string{l1, l2 + check(comp)}
}

// TD1 returns the three 30-character lines of an ID-1 card.
func TD1(in MRZInput) [3]string {
	num := fit(in.Number, 9)
	l1 := fit(in.DocCode, 2) + fit(in.Issuer, 3) + num + check(num) + fit(in.Optional, 15)
	exp := fit(in.Expiry, 6)
	l2 := in.Birth + check(in.Birth) + string(in.Sex) + exp + check(exp) + fit(in.Nationality, 3) + fit("", 11)
	comp := l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29]
	l2 += check(comp)
	return [3]string{l1, l2, nameField(in.Surname, in.Given, 30)}
}

// RusInternal returns the two 44-character lines of the Russian internal
// passport: names through the Cyrillic table, series and number split
// around the number's check digit, issue date and subdivision code in the
// optional data.
func RusInternal(surname, given, patronymic, series, number, birth string, sex byte, issue, subdivision string) ([2]string, error) {
	if len(series) != 4 || len(number) != 6 {
		return [2]string{}, fmt.Errorf("synth: series %q and number %q must have 4 and 6 digits", series, number)
	}
	names := rusMRZName(given)
	if patronymic != "" {
		names += "<" + rusMRZName(patronymic)
	}
	l1 := "PNRUS" + nameField(rusMRZName(surname), names, 39)
	num := series[:3] + number
	opt := series[3:] + issue + strings.ReplaceAll(subdivision, "-", "") + "<"
	l2 := num + check(num) + "RUS" + birth + check(birth) + string(sex) + "<<<<<<" + "<" + opt + check(opt)
	comp := l2[0:10] + l2[13:20] + l2[21:43]
	return [2]string{l1, l2 + check(comp)}, nil
}

// ValidTD3 reports whether the check digits of a TD3-shaped second line
// (also the Russian internal MRZ) are consistent.
func ValidTD3(l2 string) bool { return validMRZ(strings.Repeat("<", 44), l2) }

// ValidTD1 reports whether the check digits of TD1 lines are consistent.
func ValidTD1(l1, l2 string) bool { return validMRZ(l1, l2, strings.Repeat("<", 30)) }

// ValidTD2 reports whether the check digits of a TD2 second line are consistent.
func ValidTD2(l2 string) bool { return validMRZ(strings.Repeat("<", 36), l2) }

// validMRZ parses the lines with pkg/mrz (the first line of TD2 and TD3
// and the third of TD1 carry no check digit) and checks every digit.
func validMRZ(lines ...string) bool {
	d, err := mrz.Parse(lines...)
	return err == nil && d.Valid()
}
