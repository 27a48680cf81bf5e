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
	// Kept with the confidence its format earns, not Tesseract's score.
	if c := got["sex"].Confidence; c < 0.7 {
		t.Errorf("sex confidence %.2f, want at least 0.7", c)
	}
}

// In a bold face, a name read in its region came back in fragments
// (НИКИТИН as НИК, ПЕТРОВИЧ as ВИЧ; seed 20261125's 10th and 22nd scans)
// where the band of its words alone reads whole (rereadLine), and the
// block's unsure line no longer stands for the name.
func TestNamesReadOnTheirBand(t *testing.T) {
	x := newExtractor(t)
	all := synthPassports(t, scans, 20261125, 22)
	for _, i := range []int{9, 21} {
		s := all[i]
		got, err := x.Passport(context.Background(), s.img)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"surname", "first_name", "other_names"} {
			if g, w := got[f].Text, s.fields[f]; g != w {
				t.Errorf("scan %d: %s %q, want %q", i, f, g, w)
			}
		}
	}
}

// Digits are read by PP-OCR first: Tesseract read the factory's 0 as 9
// in the series and number of seed 20261124's 25th and 28th scans
// (7309 670093 as 7309 679093, 0412 as 9412).
func TestDigitsByPPOCR(t *testing.T) {
	x := newExtractor(t)
	all := synthPassports(t, scans, 20261124, 28)
	for _, i := range []int{24, 27} {
		s := all[i]
		got, err := x.Passport(context.Background(), s.img)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := got["series_and_number"].Text, s.fields["series_and_number"]; g != w {
			t.Errorf("scan %d: series_and_number %q, want %q", i, g, w)
		}
	}
}
