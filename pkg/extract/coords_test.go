package extract_test

import (
	"context"
	"image"
	"testing"

	"docsuite/pkg/extract"
)

// Fields printed side by side on one line (a residence stamp's code and
// date; on a passport without a zone the sex and birth date, the issue
// date and the subdivision code) are each placed on their own words, not
// all on the line they share: the boxes of such a pair differ and
// overlap little.
func TestSideBySideFieldsApart(t *testing.T) {
	x := newExtractor(t)
	type pair struct{ a, b string }
	for _, tc := range []struct {
		name    string
		samples []sample
		pairs   []pair
		extract func(sample) (extract.Fields, error)
	}{
		{
			name:    "residence stamps",
			samples: synthCrops(t, scans, 3, 6, extract.Registration),
			pairs:   []pair{{"registration_date", "subdivision_code"}},
			extract: func(s sample) (extract.Fields, error) {
				r, err := x.Extract(context.Background(), extract.Registration, s.img)
				return r.Fields, err
			},
		},
		{
			name:    "passports without a zone",
			samples: zoneless(synthPassports(t, scans, 7, 24)),
			pairs:   []pair{{"sex", "date_of_birth"}, {"date_of_issue", "subdivision_code"}},
			extract: func(s sample) (extract.Fields, error) { return x.Passport(context.Background(), s.img) },
		},
	} {
		checked := 0
		for i, s := range tc.samples {
			got, err := tc.extract(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range tc.pairs {
				fa, oka := got[p.a]
				fb, okb := got[p.b]
				if !oka || !okb {
					continue
				}
				checked++
				ra, rb := rect(fa.Coords), rect(fb.Coords)
				inter := ra.Intersect(rb)
				smaller := min(area(ra), area(rb))
				if fa.Coords == fb.Coords || 2*area(inter) > smaller {
					t.Errorf("%s, sample %d: %s %v and %s %v are on one box", tc.name, i, p.a, fa.Coords, p.b, fb.Coords)
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no pair read to check", tc.name)
		}
	}
}

// zoneless keeps the passports printed without a machine-readable zone.
func zoneless(ss []sample) []sample {
	var out []sample
	for _, s := range ss {
		if _, zoned := s.fields["mrz_1"]; !zoned {
			out = append(out, s)
		}
	}
	return out
}

// rect is the rectangle of a field's four corners.
func rect(q [4][2]int) image.Rectangle {
	return image.Rect(q[0][0], q[0][1], q[3][0], q[3][1])
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }
