package mrz

import (
	"image"
	"testing"

	"docsuite/pkg/ppocr"
)

// zoneLike tells zone lines from a form's printed rows by their readings
// at their own width: the cases are readings of the factory's zones, of
// the printed rows of a real 300 dpi scan without one and of the dense
// small print of the factory's SNILS back.
func TestZoneLike(t *testing.T) {
	for _, tc := range []struct {
		text string
		w, h int
		conf float64
		want bool
	}{
		{"9717141514RUS9409019M<<<<<<<4140818549156<80", 1466, 54, 0.95, true},
		{"PNRUS7DIN<6DUD<ET0V1<<<<<<<<<<<<<<<<", 1069, 66, 0.74, true},
		// A blurred photo's line with every filler lost.
		{"97171415148U5940901984604414081854915680", 1428, 61, 0.68, true},
		{"MXA12091982", 685, 51, 0.9, false},
		{"MCTOPAPXAHTEJICK", 689, 43, 0.9, false},
		{"MOPAPXAHTEJICK", 916, 45, 0.9, false},
		{"", 689, 26, 0, false},
		// A page number under the zone: dense, but too short for a line.
		{"23", 29, 21, 0.9, false},
		// Small print of a SNILS back: as dense as a zone, read unsure.
		{"JATAOPAJKHOPIKEYHOCTOBEPAETCJOXOAXCOTIACHOJOKYMEAT", 630, 18, 0.33, false},
		{"COTHACHOPEHOHA3AKOHOMMECTY3APETHCTPHPOBAHIOPIKHAOROBHH", 524, 17, 0.47, false},
	} {
		l := ppocr.Line{Text: tc.text, Chars: make([]ppocr.Char, len(tc.text)), Confidence: tc.conf}
		if got := zoneLike(l, image.Rect(0, 0, tc.w, tc.h)); got != tc.want {
			t.Errorf("%q in %dx%d: zoneLike %v, want %v", tc.text, tc.w, tc.h, got, tc.want)
		}
	}
}
