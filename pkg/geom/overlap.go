package geom

import "math"

// Overlap is the area two convex quads share: a clipped by b
// (Sutherland-Hodgman). The corners' order does not matter.
func Overlap(a, b Quad) float64 {
	ra, rb := a.Ring(), b.Ring()
	return math.Abs(SignedArea(clipConvex(ra[:], rb[:])))
}

// IoU is the intersection over union of two convex quads, 0 when both are
// empty.
func IoU(a, b Quad) float64 {
	inter := Overlap(a, b)
	union := a.Area() + b.Area() - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// clipConvex clips polygon subj by convex polygon clip. Both are given in
// ring order, either way round.
func clipConvex(subj, clip []Point) []Point {
	out := append([]Point(nil), subj...)
	sign := 1.0
	if SignedArea(clip) < 0 {
		sign = -1
	}
	for i := range clip {
		a, b := clip[i], clip[(i+1)%len(clip)]
		inside := func(p Point) bool { return sign*Cross(a, b, p) >= 0 }
		in := out
		out = nil
		for j := range in {
			p, q := in[j], in[(j+1)%len(in)]
			pin, qin := inside(p), inside(q)
			if pin {
				out = append(out, p)
			}
			if pin != qin {
				out = append(out, lineCut(a, b, p, q))
			}
		}
		if len(out) == 0 {
			return nil
		}
	}
	return out
}

// Cross is the z component of (b-a) x (p-a): positive when p lies to the
// left of a->b in a y-up frame.
func Cross(a, b, p Point) float64 {
	return (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
}

// lineCut is where the line through a and b crosses the segment pq.
func lineCut(a, b, p, q Point) Point {
	d1, d2 := Cross(a, b, p), Cross(a, b, q)
	t := d1 / (d1 - d2)
	return Point{X: p.X + t*(q.X-p.X), Y: p.Y + t*(q.Y-p.Y)}
}

// SignedArea is a polygon's shoelace area, its sign the ring's direction.
func SignedArea(poly []Point) float64 {
	s := 0.0
	for i := range poly {
		j := (i + 1) % len(poly)
		s += poly[i].X*poly[j].Y - poly[j].X*poly[i].Y
	}
	return s / 2
}
