package synth

import (
	"math"

	"docsuite/pkg/geom"
)

// ringOf returns a quad's corners in drawing order as plain pairs.
func ringOf(q geom.Quad) [][2]float64 {
	r := q.Ring()
	out := make([][2]float64, 4)
	for i, p := range r {
		out[i] = [2]float64{p.X, p.Y}
	}
	return out
}

// polyArea is the absolute shoelace area.
func polyArea(p [][2]float64) float64 {
	s := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		s += p[i][0]*p[j][1] - p[j][0]*p[i][1]
	}
	return math.Abs(s) / 2
}

// orient makes a polygon counter-clockwise in a y-up sense (positive area).
func orient(p [][2]float64) [][2]float64 {
	s := 0.0
	for i := range p {
		j := (i + 1) % len(p)
		s += p[i][0]*p[j][1] - p[j][0]*p[i][1]
	}
	if s < 0 {
		out := make([][2]float64, len(p))
		for i := range p {
			out[i] = p[len(p)-1-i]
		}
		return out
	}
	return p
}

// clipConvex intersects subject with a convex clip polygon
// (Sutherland-Hodgman).
func clipConvex(subject, clip [][2]float64) [][2]float64 {
	subject, clip = orient(subject), orient(clip)
	out := subject
	for i := range clip {
		a, b := clip[i], clip[(i+1)%len(clip)]
		in := out
		out = nil
		if len(in) == 0 {
			break
		}
		inside := func(p [2]float64) bool {
			return (b[0]-a[0])*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0]) >= 0
		}
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

func intersect(p, q, a, b [2]float64) [2]float64 {
	x1, y1, x2, y2 := p[0], p[1], q[0], q[1]
	x3, y3, x4, y4 := a[0], a[1], b[0], b[1]
	d := (x1-x2)*(y3-y4) - (y1-y2)*(x3-x4)
	if math.Abs(d) < 1e-12 {
		return q
	}
	t := ((x1-x3)*(y3-y4) - (y1-y3)*(x3-x4)) / d
	return [2]float64{x1 + t*(x2-x1), y1 + t*(y2-y1)}
}

// overlapArea is the area shared by two convex quads.
func overlapArea(a, b geom.Quad) float64 {
	return polyArea(clipConvex(ringOf(a), ringOf(b)))
}
