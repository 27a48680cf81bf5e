package crop

import (
	"math"
	"testing"

	"docsuite/pkg/geom"
)

// TestSidesQuadFollowsTheStraightSides checks that a blob joined to a card
// (a finger, a glare) does not drag the card's quad out and that a corner
// hidden by something lying across it comes back, while a clean card keeps
// its enclosing quad. The region is given as it is, without the erosion
// and chord cuts that part the simplest of these in segment.
func TestSidesQuadFollowsTheStraightSides(t *testing.T) {
	const size = 256
	card := rotRect(128, 128, 130, 82, 8)
	cr := card.Ring()
	// on is a rectangle (w along the card's long side, h across it)
	// centred at (u, v) in the card's own frame, turned with the card.
	on := func(u, v, w, h float64) func(x, y int) bool {
		sn, cs := math.Sincos(8 * math.Pi / 180)
		q := rotRect(128+u*cs-v*sn, 128+u*sn+v*cs, w, h, 8)
		r := q.Ring()
		return func(x, y int) bool { return insideConvex(geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}, r[:]) }
	}
	none := func(int, int) bool { return false }
	cases := []struct {
		name      string
		add, take func(x, y int) bool
		// changed: the side search must replace the enclosing quad.
		changed bool
	}{
		{name: "clean card", add: none, take: none},
		{name: "finger across the bottom side", add: on(40, 56, 14, 40), take: none, changed: true},
		{name: "glare beyond the right side", add: on(75, 10, 30, 30), take: none, changed: true},
		{name: "corner under a stick", add: none, take: func(x, y int) bool { return x+y < 195 }, changed: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := make([]float32, size*size)
			var px []int
			for y := range size {
				for x := range size {
					p := geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
					if (insideConvex(p, cr[:]) || tc.add(x, y)) && !tc.take(x, y) {
						px = append(px, y*size+x)
						in[y*size+x] = 1
					}
				}
			}
			s := newSplitter(in, make([]float32, size*size), size, size, size, NeuralOptions{}.withDefaults(), 1)
			b := s.describe(px)
			hull := convexHull(b.pts)
			q0, ok := reduceToQuad(hull)
			if !ok {
				t.Fatal("no enclosing quad")
			}
			q, changed := sidesQuad(b.pts, b.edge, hull, q0, size, size)
			if changed != tc.changed {
				t.Fatalf("replaced: %v, want %v (quad %v)", changed, tc.changed, q)
			}
			if !changed {
				return
			}
			g, e := geom.IoU(q, card), geom.IoU(q0, card)
			t.Logf("IoU %.3f, enclosing quad %.3f", g, e)
			if g < 0.95 || g < e+0.02 {
				t.Errorf("IoU %.3f, want >= 0.95 and 0.02 above the enclosing quad's %.3f", g, e)
			}
		})
	}
}

// TestHoughLinesFindsTheSides checks that the straight runs of a turned
// rectangle's outline come back as its four sides.
func TestHoughLinesFindsTheSides(t *testing.T) {
	q := rotRect(100, 90, 120, 70, 12)
	r := q.Ring()
	var pts []geom.Point
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		n := int(math.Hypot(b.X-a.X, b.Y-a.Y))
		for k := 0; k < n; k++ {
			t := float64(k) / float64(n)
			pts = append(pts, geom.Point{X: a.X + t*(b.X-a.X), Y: a.Y + t*(b.Y-a.Y)})
		}
	}
	lines := houghLines(pts)
	if len(lines) != 4 {
		t.Fatalf("found %d lines, want 4", len(lines))
	}
	for i := range r {
		side := lineThrough(r[i], r[(i+1)%4])
		ok := false
		for _, l := range lines {
			d := math.Abs((l.px-side.px)*(-side.dy) + (l.py-side.py)*side.dx)
			if angleBetween(l.line, side) < 1 && d < 1 {
				ok = true
			}
		}
		if !ok {
			t.Errorf("side %d (%v to %v) not among the lines found", i, r[i], r[(i+1)%4])
		}
	}
}
