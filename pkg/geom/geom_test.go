package geom

import (
	"image"
	"math"
	"testing"
)

func TestQuadAtAndFracBounds(t *testing.T) {
	// A 200 x 100 document turned a quarter to the right: its top edge
	// runs down the page at x = 300, from y = 50 to y = 250.
	turned := Quad{TL: {X: 300, Y: 50}, TR: {X: 300, Y: 250}, BL: {X: 200, Y: 50}, BR: {X: 200, Y: 250}}
	cases := []struct {
		name   string
		q      Quad
		u, v   float64
		want   Point
		box    [4]float64
		bounds image.Rectangle
	}{
		{name: "upright, centre", q: Quad{{X: 10, Y: 20}, {X: 210, Y: 20}, {X: 10, Y: 120}, {X: 210, Y: 120}},
			u: 0.5, v: 0.5, want: Point{X: 110, Y: 70},
			box: [4]float64{0.1, 0.2, 0.3, 0.6}, bounds: image.Rect(30, 40, 70, 80)},
		{name: "turned, top-left corner", q: turned, u: 0, v: 0, want: Point{X: 300, Y: 50},
			box: [4]float64{0, 0, 0.5, 0.5}, bounds: image.Rect(250, 50, 300, 150)},
		{name: "turned, right edge middle", q: turned, u: 1, v: 0.5, want: Point{X: 250, Y: 250},
			box: [4]float64{0, 0, 1, 1}, bounds: image.Rect(200, 50, 300, 250)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.q.At(tc.u, tc.v); math.Abs(got.X-tc.want.X) > 1e-9 || math.Abs(got.Y-tc.want.Y) > 1e-9 {
				t.Errorf("At(%g, %g) = %v, want %v", tc.u, tc.v, got, tc.want)
			}
			if got := tc.q.FracBounds(tc.box); got != tc.bounds {
				t.Errorf("FracBounds(%v) = %v, want %v", tc.box, got, tc.bounds)
			}
		})
	}
}

func TestQuadProject(t *testing.T) {
	// A document photographed at a slant: its far (top) edge is shorter.
	slant := Quad{TL: {X: 140, Y: 100}, TR: {X: 460, Y: 120}, BL: {X: 60, Y: 500}, BR: {X: 560, Y: 480}}
	// The centre of a document lies where its diagonals cross, under any
	// perspective; bilinear interpolation (At) misses it on a slant.
	cross := func(q Quad) Point {
		p, r := q[TL], Point{X: q[BR].X - q[TL].X, Y: q[BR].Y - q[TL].Y}
		s := Point{X: q[BL].X - q[TR].X, Y: q[BL].Y - q[TR].Y}
		d := r.X*s.Y - r.Y*s.X
		tt := ((q[TR].X-p.X)*s.Y - (q[TR].Y-p.Y)*s.X) / d
		return Point{X: p.X + tt*r.X, Y: p.Y + tt*r.Y}
	}
	parallel := Quad{TL: {X: 10, Y: 20}, TR: {X: 210, Y: 40}, BL: {X: 0, Y: 120}, BR: {X: 200, Y: 140}}
	cases := []struct {
		name string
		q    Quad
		u, v float64
		want Point
	}{
		{"slant, top-left", slant, 0, 0, slant[TL]},
		{"slant, top-right", slant, 1, 0, slant[TR]},
		{"slant, bottom-left", slant, 0, 1, slant[BL]},
		{"slant, bottom-right", slant, 1, 1, slant[BR]},
		{"slant, centre on the diagonals", slant, 0.5, 0.5, cross(slant)},
		{"parallelogram, as bilinear", parallel, 0.3, 0.8, parallel.At(0.3, 0.8)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.q.Project(tc.u, tc.v); math.Abs(got.X-tc.want.X) > 1e-6 || math.Abs(got.Y-tc.want.Y) > 1e-6 {
				t.Errorf("Project(%g, %g) = %v, want %v", tc.u, tc.v, got, tc.want)
			}
		})
	}
	if c, b := slant.Project(0.5, 0.5), slant.At(0.5, 0.5); math.Hypot(c.X-b.X, c.Y-b.Y) < 5 {
		t.Errorf("the slant case does not tell perspective from bilinear: %v vs %v", c, b)
	}
}

// TestIntsWithin: corners a cropper placed beyond the frame come back on
// its edge; corners inside are rounded as Ints rounds them.
func TestIntsWithin(t *testing.T) {
	q := Quad{{X: 96.4, Y: 376}, {X: 442, Y: 548}, {X: -6.2, Y: 687}, {X: 292, Y: 961.7}}
	got := q.IntsWithin(540, 960)
	want := [][2]int{{96, 376}, {442, 548}, {0, 687}, {292, 960}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("corner %d: %v, want %v", i, got[i], want[i])
		}
	}
}
