// Package geom holds the small geometric vocabulary shared by every stage:
// points, document quadrilaterals and the rotation code of the API.
package geom

import (
	"image"
	"math"
)

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

// IntsWithin is Ints with every point held on a page of w x h pixels,
// its outline included ([0, w] x [0, h]: a whole page is (0, 0) to
// (w, h)): a document cut by the frame has corners the cropper placed
// beyond it, and the API answers points on the page only.
func (q Quad) IntsWithin(w, h int) [][2]int {
	out := q.Ints()
	ClampPoints(out, w, h)
	return out
}

// ClampPoints moves integer points onto a page of w x h pixels
// ([0, w] x [0, h]), in place.
func ClampPoints(pts [][2]int, w, h int) {
	for i := range pts {
		pts[i][0] = min(max(pts[i][0], 0), max(w, 0))
		pts[i][1] = min(max(pts[i][1], 0), max(h, 0))
	}
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

// At maps a point given as fractions of the upright document (u across
// from the left edge, v down from the top edge) onto the page: bilinear
// between the four corners.
func (q Quad) At(u, v float64) Point {
	top := Point{X: q[TL].X + (q[TR].X-q[TL].X)*u, Y: q[TL].Y + (q[TR].Y-q[TL].Y)*u}
	bot := Point{X: q[BL].X + (q[BR].X-q[BL].X)*u, Y: q[BL].Y + (q[BR].Y-q[BL].Y)*u}
	return Point{X: top.X + (bot.X-top.X)*v, Y: top.Y + (bot.Y-top.Y)*v}
}

// Project maps a point given as fractions of the document as cut (u
// across from TL towards TR, v down from TL towards BL) onto the page
// through the perspective that takes the unit square onto q, the inverse
// of the perspective correction that cut the document out (crop.Warp):
// a point of the crop at (x, y) of its w x h pixels lies on the page at
// q.Project(x/w, y/h). A degenerate quad falls back to At.
func (q Quad) Project(u, v float64) Point {
	// The square-to-quadrilateral mapping (Heckbert, 1989) with the
	// corners in the order of the unit square (0,0) (1,0) (1,1) (0,1).
	x0, y0 := q[TL].X, q[TL].Y
	x1, y1 := q[TR].X, q[TR].Y
	x2, y2 := q[BR].X, q[BR].Y
	x3, y3 := q[BL].X, q[BL].Y
	sx, sy := x0-x1+x2-x3, y0-y1+y2-y3
	var a, b, c, d, e, f, g, h float64
	if math.Abs(sx) < 1e-9 && math.Abs(sy) < 1e-9 {
		a, b, c = x1-x0, x3-x0, x0
		d, e, f = y1-y0, y3-y0, y0
	} else {
		dx1, dx2, dy1, dy2 := x1-x2, x3-x2, y1-y2, y3-y2
		den := dx1*dy2 - dx2*dy1
		if math.Abs(den) < 1e-12 {
			return q.At(u, v)
		}
		g = (sx*dy2 - dx2*sy) / den
		h = (dx1*sy - sx*dy1) / den
		a, b, c = x1-x0+g*x1, x3-x0+h*x3, x0
		d, e, f = y1-y0+g*y1, y3-y0+h*y3, y0
	}
	w := g*u + h*v + 1
	if math.Abs(w) < 1e-12 {
		return q.At(u, v)
	}
	return Point{X: (a*u + b*v + c) / w, Y: (d*u + e*v + f) / w}
}

// FracBounds maps a box given as fractions of the upright document (x0,
// y0, x1, y1) onto the page (see At) and returns the pixel rectangle that
// holds it.
func (q Quad) FracBounds(f [4]float64) image.Rectangle {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range []Point{q.At(f[0], f[1]), q.At(f[2], f[1]), q.At(f[0], f[3]), q.At(f[2], f[3])} {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	return image.Rect(int(x0), int(y0), int(math.Ceil(x1)), int(math.Ceil(y1)))
}

func dist(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
