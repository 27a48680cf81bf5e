package extract_test

import (
	"context"
	"testing"
)

// Words Tesseract reads right but scores near zero in a block (a town
// wrapped onto a line of its own, ОМСК, whose letters have small forms of
// the same shape; the first word, which the caption above touches) are
// read again alone and kept: the issuing authority of these factory scans
// (seed 20261123, which lost ОМСК, ОТДЕЛОМ and ОТДЕЛОМ ... ОМСК before the
// second reading) comes back whole.
func TestAuthorityWordsReadAgain(t *testing.T) {
	x := newExtractor(t)
	cases := map[int]bool{16: true, 19: true, 25: true}
	for i, s := range synthPassports(t, scans, 20261123, 26) {
		if !cases[i] {
			continue
		}
		got, err := x.Passport(context.Background(), s.img)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := got["issuing_authority"].Text, s.fields["issuing_authority"]; g != w {
			t.Errorf("sample %d: issuing_authority %q, want %q", i, g, w)
		}
	}
}

// A name line read with a look-alike inside a name (6, the table's Э, for
// the G of OL9GA, ОЛЬГА) that the visual zone settles is written again
// from the names chosen, as the zone prints it (seed 20261124's 36th scan).
func TestNameLineFromSettledNames(t *testing.T) {
	x := newExtractor(t)
	ps := synthPassports(t, scans, 20261124, 36)
	s := ps[35]
	got, err := x.Passport(context.Background(), s.img)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := got["mrz_1"].Text, s.fields["mrz_1"]; g != w {
		t.Errorf("mrz_1 %q, want %q", g, w)
	}
}

// On the form without a zone the names are placed by their regions when
// the birth-date line runs through its own: that line also holds the sex
// to its left, so its centre lies left of the date's region, and the names
// had been taken in order instead, shifted up when the surname was not
// read (seed 20261123's third scan: the first name answered as the surname,
// the patronymic as the first name). Its surname, ВОЛКОВ, scored 0.40 in
// its region (capitals whose small forms share their shape) and is read
// again alone.
func TestZonelessNamesInTheirRegions(t *testing.T) {
	x := newExtractor(t)
	s := synthPassports(t, scans, 20261123, 3)[2]
	if _, zoned := s.fields["mrz_1"]; zoned {
		t.Fatal("the third scan of seed 20261123 is expected without a zone")
	}
	got, err := x.Passport(context.Background(), s.img)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"surname", "first_name", "other_names"} {
		if g, w := got[f].Text, s.fields[f]; g != w {
			t.Errorf("%s %q, want %q", f, g, w)
		}
	}
}

// The sex is read right but scored near zero when the caption above
// touches it; МУЖ. and ЖЕН. are kept whatever their score, as dates are
// (seed 20261125's 18th scan, a form without a zone, lost it before).
func TestSexKeptWhateverItsScore(t *testing.T) {
	x := newExtractor(t)
	s := synthPassports(t, scans, 20261125, 18)[17]
	got, err := x.Passport(context.Background(), s.img)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := got["sex"].Text, s.fields["sex"]; g != w {
		t.Errorf("sex %q, want %q", g, w)
	}
}
