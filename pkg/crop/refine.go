package crop

import (
	"math"
	"sort"

	"docsuite/pkg/geom"
)

// line is a point on the line and its unit direction.
type line struct {
	px, py, dx, dy float64
}

const refineSamples = 40

// refine moves each side of a quad found on the downscaled image onto the
// strongest edge of the same contrast sign at full resolution, fits a line
// through those edge points and intersects neighbouring sides to get the
// corners. Sides on the frame and sides without enough edge evidence stay
// where they were. scale is the full-resolution pixels per detection pixel.
func refine(lum func(x, y int) float64, q geom.Quad, scale float64, w, h int) geom.Quad {
	r := q.Ring()
	radius := math.Max(3, 1.5*scale+1)
	var sides [4]line
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		sides[i] = lineThrough(a, b)
		if onFrameSide(geom.Point{X: a.X / scale, Y: a.Y / scale}, geom.Point{X: b.X / scale, Y: b.Y / scale},
			int(float64(w)/scale+0.5), int(float64(h)/scale+0.5)) {
			continue
		}
		if l, ok := fitSide(lum, a, b, radius); ok {
			sides[i] = l
		}
	}
	var out [4]geom.Point
	for i := range r {
		p, ok := meet(sides[(i+3)%4], sides[i])
		if !ok || math.Hypot(p.X-r[i].X, p.Y-r[i].Y) > 3*radius {
			p = r[i]
		}
		out[i] = p
	}
	// Ring order back to TL, TR, BL, BR.
	return geom.Quad{out[0], out[1], out[3], out[2]}
}

func lineThrough(a, b geom.Point) line {
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return line{px: a.X, py: a.Y, dx: 1}
	}
	return line{px: a.X, py: a.Y, dx: dx / l, dy: dy / l}
}

// fitSide searches along the normal of side ab for the edge and fits a
// line through the edge points found.
func fitSide(lum func(x, y int) float64, a, b geom.Point, radius float64) (line, bool) {
	base := lineThrough(a, b)
	nx, ny := -base.dy, base.dx
	length := math.Hypot(b.X-a.X, b.Y-a.Y)
	type hit struct{ x, y, g float64 }
	hits := make([]hit, 0, refineSamples)
	rad := int(math.Ceil(radius))
	g := make([]float64, 2*rad+1)
	sum := 0.0
	for i := 0; i < refineSamples; i++ {
		t := 0.08 + 0.84*float64(i)/float64(refineSamples-1)
		x, y := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		at := func(s float64) float64 {
			return lum(int(math.Round(x+s*nx)), int(math.Round(y+s*ny)))
		}
		best := 0
		for k := range g {
			s := float64(k - rad)
			g[k] = at(s+1) - at(s-1)
			if math.Abs(g[k]) > math.Abs(g[best]) {
				best = k
			}
		}
		off := float64(best - rad)
		if best > 0 && best < len(g)-1 {
			// Parabolic peak of |g| for a sub-pixel position.
			l, c, rr := math.Abs(g[best-1]), math.Abs(g[best]), math.Abs(g[best+1])
			if den := l - 2*c + rr; den < 0 {
				off += 0.5 * (l - rr) / den
			}
		}
		hits = append(hits, hit{x + off*nx, y + off*ny, g[best]})
		sum += g[best]
	}
	sign := math.Copysign(1, sum)
	var xs, ys []float64
	for _, h := range hits {
		if h.g*sign >= 6 {
			xs = append(xs, h.x)
			ys = append(ys, h.y)
		}
	}
	if len(xs) < refineSamples/3 || length < 8 {
		return line{}, false
	}
	l := fitLine(xs, ys)
	// One round of outlier removal (text or a finger next to the edge).
	res := make([]float64, len(xs))
	for i := range xs {
		res[i] = math.Abs((xs[i]-l.px)*(-l.dy) + (ys[i]-l.py)*l.dx)
	}
	sorted := append([]float64(nil), res...)
	sort.Float64s(sorted)
	limit := math.Max(1.5, 3*sorted[len(sorted)/2])
	var fx, fy []float64
	for i := range xs {
		if res[i] <= limit {
			fx = append(fx, xs[i])
			fy = append(fy, ys[i])
		}
	}
	if len(fx) < refineSamples/3 {
		return line{}, false
	}
	return fitLine(fx, fy), true
}

// fitLine is the total-least-squares line through the points.
func fitLine(xs, ys []float64) line {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i] / n
		my += ys[i] / n
	}
	var sxx, sxy, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	theta := 0.5 * math.Atan2(2*sxy, sxx-syy)
	return line{px: mx, py: my, dx: math.Cos(theta), dy: math.Sin(theta)}
}

// meet intersects two lines.
func meet(a, b line) (geom.Point, bool) {
	den := a.dx*b.dy - a.dy*b.dx
	if math.Abs(den) < 1e-6 {
		return geom.Point{}, false
	}
	t := ((b.px-a.px)*b.dy - (b.py-a.py)*b.dx) / den
	return geom.Point{X: a.px + t*a.dx, Y: a.py + t*a.dy}, true
}
