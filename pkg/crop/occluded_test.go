package crop

import (
	"testing"

	"docsuite/pkg/geom"
)

// hideBand clears the maps inside the band of the given half width around
// the vertical line x = cx, from y0 to y1: something lying across the
// document (a finger) hides its interior and its outline alike.
func hideBand(interior, boundary []float32, size int, cx, half, y0, y1 float64) {
	for y := range size {
		for x := range size {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			if fx >= cx-half && fx <= cx+half && fy >= y0 && fy <= y1 {
				interior[y*size+x] = 0
				boundary[y*size+x] = 0
			}
		}
	}
}

func TestJoinOccludedPieces(t *testing.T) {
	const size = 256
	card := rotRect(128, 128, 150, 95, 0)
	cases := []struct {
		name string
		docs []geom.Quad
		// band is the hidden band's centre x (0: none).
		band float64
		// want are the documents expected back (IoU >= 0.9 each).
		want []geom.Quad
	}{
		{name: "a card crossed by a finger", docs: []geom.Quad{card}, band: 118, want: []geom.Quad{card}},
		{name: "a card crossed off centre", docs: []geom.Quad{card}, band: 150, want: []geom.Quad{card}},
		{name: "two cards apart in a row", docs: []geom.Quad{rotRect(75, 128, 90, 57, 0), rotRect(185, 128, 90, 57, 0)},
			want: []geom.Quad{rotRect(75, 128, 90, 57, 0), rotRect(185, 128, 90, 57, 0)}},
		// Exactly aligned, two such cards are one rectangle to the maps
		// (mergePieces takes them for one); one turned a little is not.
		{name: "two cards edge to edge", docs: []geom.Quad{rotRect(83, 128, 90, 57, 0), rotRect(173, 128, 90, 57, 5)},
			want: []geom.Quad{rotRect(83, 128, 90, 57, 0), rotRect(173, 128, 90, 57, 5)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, tc.docs)
			if tc.band > 0 {
				hideBand(in, bd, size, tc.band, 6, 60, 200)
			}
			got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
			if len(got) != len(tc.want) {
				t.Fatalf("%d documents, want %d: %+v", len(got), len(tc.want), got)
			}
			for _, w := range tc.want {
				best := 0.0
				for _, g := range got {
					best = max(best, geom.IoU(g.quad, w))
				}
				if best < 0.9 {
					t.Errorf("document %v found at IoU %.2f, want >= 0.9 (got %+v)", w, best, got)
				}
			}
			if tc.band > 0 {
				apart := segment(in, bd, size, size, size, NeuralOptions{NoJoin: true}.withDefaults())
				if len(apart) != 2 {
					t.Errorf("without joining: %d documents, want the 2 pieces the test is about", len(apart))
				}
			}
		})
	}
}
