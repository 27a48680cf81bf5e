package crop

import (
	"math"
	"testing"

	"docsuite/pkg/geom"
)

// TestSegmentCutsAlongChords checks that documents overlapping with no
// outline at all where the upper one lies on the lower (the network
// missed that edge) are cut apart along the chord between the notches
// where their outlines meet, with or without the chords' help counted:
// NoChords shows the region stays one rejected blob without them. One
// document with a notch (a corner torn off) stays whole.
func TestSegmentCutsAlongChords(t *testing.T) {
	const size = 256
	cases := []struct {
		name string
		docs []geom.Quad
		want int
	}{
		{name: "two cards overlapping at a corner", docs: []geom.Quad{rotRect(90, 100, 100, 64, -8), rotRect(160, 150, 100, 64, 10)}, want: 2},
		{name: "a certificate on a sheet", docs: []geom.Quad{rotRect(90, 95, 100, 135, 4), rotRect(160, 155, 90, 125, -9)}, want: 2},
		{name: "three cards in a row", docs: []geom.Quad{rotRect(55, 80, 90, 58, -5), rotRect(130, 128, 90, 58, 8), rotRect(205, 178, 90, 58, -3)}, want: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, tc.docs)
			// The upper documents' edges lying on the lower ones are unseen.
			for y := range size {
				for x := range size {
					p := geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
					for _, d := range tc.docs {
						if r := d.Ring(); insideConvex(p, r[:]) && distToRing(p, r[:]) > 2 {
							bd[y*size+x] = 0
						}
					}
				}
			}
			without := segment(in, bd, size, size, size, NeuralOptions{NoChords: true}.withDefaults())
			if len(without) == len(tc.docs) {
				t.Fatalf("without chords %d documents found already: the case tests nothing", len(without))
			}
			got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
			if len(got) != tc.want {
				t.Fatalf("found %d documents, want %d: %v", len(got), tc.want, got)
			}
			for _, d := range tc.docs {
				best := bestIoU(d, got)
				if best < 0.85 {
					t.Errorf("document %v: best IoU %.3f < 0.85", d, best)
				}
			}
		})
	}
	t.Run("one card with a corner torn off", func(t *testing.T) {
		d := rotRect(128, 128, 140, 90, 6)
		in, bd := drawMaps(size, []geom.Quad{d})
		r := d.Ring()
		for y := range size {
			for x := range size {
				p := geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
				if math.Hypot(p.X-r[0].X, p.Y-r[0].Y) < 25 {
					in[y*size+x], bd[y*size+x] = 0, 0
				}
			}
		}
		got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
		if len(got) != 1 || geom.IoU(d, got[0].quad) < 0.9 {
			t.Fatalf("got %v, want the one card", got)
		}
	})
}
