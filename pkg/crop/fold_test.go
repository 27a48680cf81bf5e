package crop

import (
	"math"
	"testing"

	"docsuite/pkg/geom"
)

// TestJoinFolds checks that the two pages of a passport spread, found as
// two documents with the band along the fold between them, come back as
// one, and that documents which only look alike stay apart.
func TestJoinFolds(t *testing.T) {
	// box is the rectangle u0..u1 × v0..v1 of a frame turned by 7 degrees
	// about (600, 500), in page pixels.
	box := func(u0, v0, u1, v1 float64) geom.Quad {
		sn, cs := math.Sincos(7 * math.Pi / 180)
		at := func(u, v float64) geom.Point { return geom.Point{X: 600 + u*cs - v*sn, Y: 500 + u*sn + v*cs} }
		return OrderCorners([4]geom.Point{at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)})
	}
	spread := box(-180, -250, 180, 250)
	cases := []struct {
		name  string
		quads []geom.Quad
		// want is the documents expected; joined is the quad wanted
		// first when a pair is joined.
		want   int
		joined geom.Quad
	}{
		{"a spread's two pages, 14 px of fold between them",
			[]geom.Quad{box(-180, -250, 180, -7), box(-180, 7, 180, 250)}, 1, spread},
		{"a spread's two pages after a card, the spread first once joined",
			[]geom.Quad{box(250, -100, 420, 100), box(-180, -250, 180, -7), box(-180, 7, 180, 250)}, 2, spread},
		{"two sheets side by side, 40 px apart",
			[]geom.Quad{box(-180, -250, 180, -20), box(-180, 20, 180, 250)}, 2, geom.Quad{}},
		{"a card on a larger document, along part of its side",
			[]geom.Quad{box(-180, -250, 180, -7), box(-60, 7, 60, 90)}, 2, geom.Quad{}},
		{"two pages offset along the fold by a sixth of it",
			[]geom.Quad{box(-180, -250, 180, -7), box(-120, 7, 240, 250)}, 2, geom.Quad{}},
		{"a page and a half page",
			[]geom.Quad{box(-180, -250, 180, -7), box(-180, 7, 180, 120)}, 2, geom.Quad{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var found []placedRegion
			for _, q := range tc.quads {
				found = append(found, placedRegion{Found: Found{Quad: q, Score: 0.9}, scale: 4})
			}
			got := joinFolds(found)
			if len(got) != tc.want {
				t.Fatalf("%d documents, want %d", len(got), tc.want)
			}
			if tc.want == len(tc.quads) {
				return // nothing joined: the caller's order stands
			}
			if v := geom.IoU(got[0].Quad, tc.joined); v < 0.98 {
				t.Errorf("first document's IoU %.3f with the spread, want >= 0.98", v)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Quad.Area() > got[i-1].Quad.Area() {
					t.Errorf("document %d larger than the one before it: not largest first", i)
				}
			}
		})
	}
}
