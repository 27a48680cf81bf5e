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
