// Package geom holds the small geometric vocabulary shared by every stage:
// points, document quadrilaterals and the rotation code of the API.
package geom

import "math"

// Point is a pixel position in a page's pixel grid.
type Point struct {
	X, Y float64
}

// Quad is a document outline as four corners in the API's order:
// top-left, top-right, bottom-left, bottom-right of the document as it
// should be read (the upright document).
type Quad [4]Point

// Corner indexes of a Quad.
const (
	TL = 0
	TR = 1
	BL = 2
	BR = 3
)

// Ints returns the corners rounded to integer pixels as [[x, y] x4],
// which is how the API writes coords.
func (q Quad) Ints() [][2]int {
	out := make([][2]int, 4)
	for i, p := range q {
		out[i] = [2]int{int(math.Round(p.X)), int(math.Round(p.Y))}
	}
	return out
}

// Ring returns the corners in drawing order (TL, TR, BR, BL), useful for
// polygon operations.
func (q Quad) Ring() [4]Point {
	return [4]Point{q[TL], q[TR], q[BR], q[BL]}
}

// Area is the absolute area of the quadrilateral (shoelace formula).
func (q Quad) Area() float64 {
	r := q.Ring()
	s := 0.0
	for i := range r {
		j := (i + 1) % 4
		s += r[i].X*r[j].Y - r[j].X*r[i].Y
	}
	return math.Abs(s) / 2
}

// Size is the mean width and height of the quadrilateral, in pixels.
func (q Quad) Size() (w, h float64) {
	w = (dist(q[TL], q[TR]) + dist(q[BL], q[BR])) / 2
	h = (dist(q[TL], q[BL]) + dist(q[TR], q[BR])) / 2
	return w, h
}

func dist(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
