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
