package main

import "math"

type pt struct{ X, Y float64 }

// ring turns TL, TR, BL, BR corners into a polygon in drawing order.
func ring(q [4]pt) []pt { return []pt{q[0], q[1], q[3], q[2]} }

func area(p []pt) float64 {
	s := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		s += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	return math.Abs(s) / 2
}

// orient makes a polygon counter-clockwise (in y-down image coordinates
// the sign flips, but consistency is what clipping needs).
func orient(p []pt) []pt {
	s := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		s += p[i].X*p[j].Y - p[j].X*p[i].Y
	}
	if s < 0 {
		out := make([]pt, len(p))
		for i := range p {
			out[i] = p[len(p)-1-i]
		}
		return out
	}
	return p
}

// clip intersects subject with a convex clip polygon (Sutherland-Hodgman).
func clip(subject, clipper []pt) []pt {
	out := subject
	for i := range clipper {
		a, b := clipper[i], clipper[(i+1)%len(clipper)]
		in := out
		out = nil
		if len(in) == 0 {
			break
		}
		inside := func(p pt) bool { return (b.X-a.X)*(p.Y-a.Y)-(b.Y-a.Y)*(p.X-a.X) >= 0 }
		s := in[len(in)-1]
		for _, e := range in {
			if inside(e) {
				if !inside(s) {
					out = append(out, intersect(s, e, a, b))
				}
				out = append(out, e)
			} else if inside(s) {
				out = append(out, intersect(s, e, a, b))
			}
			s = e
		}
	}
	return out
}

func intersect(p1, p2, a, b pt) pt {
	x1, y1, x2, y2 := p1.X, p1.Y, p2.X, p2.Y
	x3, y3, x4, y4 := a.X, a.Y, b.X, b.Y
	den := (x1-x2)*(y3-y4) - (y1-y2)*(x3-x4)
	if den == 0 {
		return p2
	}
	t := ((x1-x3)*(y3-y4) - (y1-y3)*(x3-x4)) / den
	return pt{x1 + t*(x2-x1), y1 + t*(y2-y1)}
}

// iou is the intersection over union of two (convex) quadrilaterals.
func iou(a, b [4]pt) float64 {
	pa, pb := orient(ring(a)), orient(ring(b))
	inter := area(clip(pa, pb))
	union := area(pa) + area(pb) - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}
