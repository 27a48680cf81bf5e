package mrz_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/mrz"
	"docsuite/pkg/synth"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want byte
	}{
		{"L898902C3", '6'}, // ICAO 9303 part 3 worked example
		{"740812", '2'},    // birth date of the specimen
		{"120415", '9'},    // expiry date of the specimen
		{"D23145890", '7'}, // TD1 document number
		{"<<<<<<<<<", '0'}, // fillers count zero
		{"520727", '3'},    // ICAO part 3 example
		{"AB2134<<<", '5'}, // ICAO part 3 example with fillers
		{"ZE184226B<<<<<", '1'},
	} {
		if got := mrz.Check(tc.in); got != tc.want {
			t.Errorf("Check(%q) = %c, want %c", tc.in, got, tc.want)
		}
	}
}

// ICAO 9303 specimens of the three layouts.
func TestParseSpecimens(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  mrz.Document
	}{
		{"TD3", []string{
			"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
			"L898902C36UTO7408122F1204159ZE184226B<<<<<10",
		}, mrz.Document{Format: mrz.TD3, DocumentCode: "P", Issuer: "UTO", Surname: "ERIKSSON", GivenNames: "ANNA MARIA",
			Number: "L898902C3", Nationality: "UTO", BirthDate: "740812", Sex: "F", ExpiryDate: "120415", Optional: "ZE184226B"}},
		{"TD2", []string{
			"I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<",
			"D231458907UTO7408122F1204159<<<<<<<6",
		}, mrz.Document{Format: mrz.TD2, DocumentCode: "I", Issuer: "UTO", Surname: "ERIKSSON", GivenNames: "ANNA MARIA",
			Number: "D23145890", Nationality: "UTO", BirthDate: "740812", Sex: "F", ExpiryDate: "120415"}},
		{"TD1", []string{
			"I<UTOD231458907<<<<<<<<<<<<<<<",
			"7408122F1204159UTO<<<<<<<<<<<6",
			"ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
		}, mrz.Document{Format: mrz.TD1, DocumentCode: "I", Issuer: "UTO", Surname: "ERIKSSON", GivenNames: "ANNA MARIA",
			Number: "D23145890", Nationality: "UTO", BirthDate: "740812", Sex: "F", ExpiryDate: "120415"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := mrz.Parse(tc.lines...)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Valid() {
				t.Errorf("check digits fail: %v", d.Failed())
			}
			got := *d
			got.Lines, got.Checks = nil, nil
			w := tc.want
			if got.Format != w.Format || got.DocumentCode != w.DocumentCode || got.Issuer != w.Issuer ||
				got.Surname != w.Surname || got.GivenNames != w.GivenNames || got.Number != w.Number ||
				got.Nationality != w.Nationality || got.BirthDate != w.BirthDate || got.Sex != w.Sex ||
				got.ExpiryDate != w.ExpiryDate || got.Optional != w.Optional {
				t.Errorf("got %+v\nwant %+v", got, w)
			}
		})
	}
}

// One wrong character in each checked field is caught by that field's
// digit (and the composite).
func TestParseCheckDigitFailures(t *testing.T) {
	l1 := "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
	l2 := "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
	for _, tc := range []struct {
		pos  int
		with byte
		want []string
	}{
		{2, '0', []string{"document_number", "composite"}},
		{15, '1', []string{"birth_date", "composite"}},
		{24, '5', []string{"expiry_date", "composite"}},
		{30, '7', []string{"optional_data", "composite"}},
		{43, '1', []string{"composite"}},
		{20, 'M', nil}, // sex is covered by no digit
	} {
		b := []byte(l2)
		b[tc.pos] = tc.with
		d, err := mrz.Parse(l1, string(b))
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Failed(); strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("changing %d to %c: failed %v, want %v", tc.pos, tc.with, got, tc.want)
		}
		if d.Valid() != (tc.want == nil) {
			t.Errorf("changing %d: Valid() = %v", tc.pos, d.Valid())
		}
	}
}

func TestParseRejectsShapes(t *testing.T) {
	for _, lines := range [][]string{
		{"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"},
		{"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"},
		{"p<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"},
		{"P<UTOERIKSSON<<ANNA MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"},
	} {
		if _, err := mrz.Parse(lines...); !errors.Is(err, mrz.ErrShape) {
			t.Errorf("Parse(%q) error %v, want ErrShape", lines, err)
		}
	}
}

// The Russian internal passport: a zone written by the document factory
// decodes back to the Cyrillic names, series, number, dates and code.
func TestRussianInternal(t *testing.T) {
	for _, tc := range []struct {
		surname, given, patronymic, series, number, birth string
		sex                                               byte
		issue, sub                                        string
	}{
		{"Имярек", "Евгений", "Александрович", "1104", "000000", "820912", 'M', "041217", "292-000"},
		{"Щёголева", "Юлия", "Эдуардовна", "4509", "235857", "780810", 'F', "150703", "770-061"},
		{"Чернышёв", "Пётр", "Ильич", "0301", "123456", "010101", 'M', "210205", "230-005"},
		{"Ким", "Хьюн", "", "6010", "999999", "991231", 'M', "200101", "610-001"},
	} {
		l, err := synth.RusInternal(tc.surname, tc.given, tc.patronymic, tc.series, tc.number, tc.birth, tc.sex, tc.issue, tc.sub)
		if err != nil {
			t.Fatal(err)
		}
		d, err := mrz.Parse(l[0], l[1])
		if err != nil {
			t.Fatal(err)
		}
		if !d.Valid() || !d.IsRussianInternal() {
			t.Fatalf("%q: valid %v (failed %v), Russian %v", l, d.Valid(), d.Failed(), d.IsRussianInternal())
		}
		r, err := d.Russian()
		if err != nil {
			t.Fatal(err)
		}
		want := mrz.RussianInternal{
			Surname: strings.ToUpper(tc.surname), GivenName: strings.ToUpper(tc.given), Patronymic: strings.ToUpper(tc.patronymic),
			Series: tc.series, Number: tc.number, BirthDate: tc.birth, IssueDate: tc.issue, Sex: string(tc.sex), Subdivision: tc.sub,
		}
		if *r != want {
			t.Errorf("%q:\ngot  %+v\nwant %+v", l, *r, want)
		}
	}
	d, _ := mrz.Parse("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
	if _, err := d.Russian(); err == nil {
		t.Error("an ICAO passport decoded as a Russian internal one")
	}
}

func TestDate(t *testing.T) {
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in     string
		future bool
		want   string
	}{
		{"820912", false, "1982-09-12"},
		{"041217", false, "2004-12-17"},
		{"261123", false, "2026-11-23"},
		{"270101", false, "1927-01-01"},
		{"261215", false, "1926-12-15"}, // later this year: a century back
		{"261124", false, "1926-11-24"},
		{"350101", true, "2035-01-01"},
		{"120415", true, "2012-04-15"},
		{"000229", false, "2000-02-29"},
		{"010229", false, ""},
		{"8209<2", false, ""},
	} {
		got, err := mrz.Date(tc.in, now, tc.future)
		if tc.want == "" {
			if err == nil {
				t.Errorf("Date(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got.Format("2006-01-02") != tc.want {
			t.Errorf("Date(%q, future=%v) = %v, %v; want %s", tc.in, tc.future, got, err, tc.want)
		}
	}
}
