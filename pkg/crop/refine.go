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
// strongest edge of the same contrast sign at full resolution, or onto a
// parallel edge just outside it where the document ends (fitSide), fits a
// line through those edge points and intersects neighbouring sides to get
// the corners. Sides on the frame and sides without enough edge evidence stay
// where they were. scale is the full-resolution pixels per detection pixel.
func refine(lum func(x, y int) float64, q geom.Quad, scale float64, w, h int) geom.Quad {
	r := q.Ring()
	radius := math.Max(3, 1.5*scale+1)
	var cx, cy float64
	for _, p := range r {
		cx, cy = cx+p.X/4, cy+p.Y/4
	}
	var sides [4]line
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		sides[i] = lineThrough(a, b)
		if onFrameSide(geom.Point{X: a.X / scale, Y: a.Y / scale}, geom.Point{X: b.X / scale, Y: b.Y / scale},
			int(float64(w)/scale+0.5), int(float64(h)/scale+0.5)) {
			continue
		}
		// out: whether the normal (-dy, dx) of ab points away from the centre.
		out := 1.0
		if -(b.Y-a.Y)*(cx-a.X)+(b.X-a.X)*(cy-a.Y) > 0 {
			out = -1
		}
		if l, ok := fitSide(lum, a, b, radius, out); ok {
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

// edgeHit is the strongest gradient found across a side at one sample:
// its position and signed strength.
type edgeHit struct{ x, y, g float64 }

// sideProfile is the luminance gradient across a side at one sample
// point: g[k] is the central difference at offset k-rad along the
// side's normal (nx, ny).
type sideProfile struct {
	x, y float64
	g    []float64
}

// fitSide searches along the normal of side ab for the edge and fits a
// line through the edge points found. out is +1 when the normal
// (-dy, dx) of ab points out of the document, -1 when it points in.
//
// The strongest edge within radius is the side's first estimate. A
// document is often bounded by two edges a few millimetres apart: a
// passport's pages inside the rim of its cover, a certificate's printed
// border band running to the paper's edge. The inner one, between paper
// and print, is commonly the stronger, but the document ends at the
// outer one. So when a second straight edge runs parallel outside the
// first within the same window, the side is put on it instead
// (outerEdge).
func fitSide(lum func(x, y int) float64, a, b geom.Point, radius, out float64) (line, bool) {
	base := lineThrough(a, b)
	nx, ny := -base.dy, base.dx
	length := math.Hypot(b.X-a.X, b.Y-a.Y)
	if length < 8 {
		return line{}, false
	}
	rad := int(math.Ceil(radius))
	profiles := make([]sideProfile, refineSamples)
	for i := range profiles {
		t := 0.08 + 0.84*float64(i)/float64(refineSamples-1)
		x, y := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		at := func(s float64) float64 {
			return lum(int(math.Round(x+s*nx)), int(math.Round(y+s*ny)))
		}
		g := make([]float64, 2*rad+1)
		for k := range g {
			s := float64(k - rad)
			g[k] = at(s+1) - at(s-1)
		}
		profiles[i] = sideProfile{x: x, y: y, g: g}
	}
	hits := make([]edgeHit, len(profiles))
	for i, p := range profiles {
		hits[i], _ = p.peak(0, 2*rad, rad, nx, ny)
	}
	inner, strength, ok := edgeLine(hits)
	if !ok {
		return line{}, false
	}
	if outer, ok := outerEdge(profiles, inner, strength, rad, nx, ny, out); ok {
		return outer, true
	}
	return inner, true
}

// peak is the strongest gradient of the profile at indices lo..hi, at a
// sub-pixel offset from the parabola through its neighbours, and its
// index.
func (p sideProfile) peak(lo, hi, rad int, nx, ny float64) (edgeHit, int) {
	g := p.g
	best := lo
	for k := lo; k <= hi; k++ {
		if math.Abs(g[k]) > math.Abs(g[best]) {
			best = k
		}
	}
	off := float64(best - rad)
	if best > 0 && best < len(g)-1 {
		l, c, rr := math.Abs(g[best-1]), math.Abs(g[best]), math.Abs(g[best+1])
		if den := l - 2*c + rr; den < 0 {
			off += 0.5 * (l - rr) / den
		}
	}
	return edgeHit{p.x + off*nx, p.y + off*ny, g[best]}, best
}

// outerGap is how far (pixels) outside the inner edge an outer edge must
// lie to count as a second one rather than the inner edge's own blur.
const outerGap = 2.5

// outerOn is how many tenths of the samples an outer edge's line must
// pass within 1.5 pixels of.
const outerOn = 7

// outerStrength is the least share of the inner edge's median strength
// an outer edge must have.
const outerStrength = 0.3

// outerEdge looks outside the inner edge line for a second edge: at each
// sample the strongest gradient from outerGap beyond the inner line out
// to the end of the search window, standing as a peak of its own (not
// the tail of the inner edge's blur). It is taken when it makes a line
// as edgeLine asks, outerOn tenths of the samples lie within 1.5 pixels
// of that line (a straight edge, not a scatter of texture or noise), the
// line is within 3 degrees of parallel to the inner one and outerGap
// outside it, and its median strength is at least outerStrength of the
// inner edge's (a faint shadow's border is not taken).
func outerEdge(profiles []sideProfile, inner line, strength float64, rad int, nx, ny, out float64) (line, bool) {
	inx, iny := -inner.dy, inner.dx
	den := nx*inx + ny*iny
	if math.Abs(den) < 0.9 {
		return line{}, false
	}
	hits := make([]edgeHit, 0, len(profiles))
	for _, p := range profiles {
		// Offset of the inner line along the normal at this sample.
		s0 := -((p.x-inner.px)*inx + (p.y-inner.py)*iny) / den
		// Indices strictly outward of s0 + outerGap.
		var lo, hi int
		if out > 0 {
			lo, hi = int(math.Ceil(s0+outerGap))+rad, len(p.g)-2
		} else {
			lo, hi = 1, int(math.Floor(s0-outerGap))+rad
		}
		lo, hi = max(lo, 1), min(hi, len(p.g)-2)
		if lo > hi {
			continue
		}
		h, k := p.peak(lo, hi, rad, nx, ny)
		if math.Abs(h.g) < math.Abs(p.g[k-1]) || math.Abs(h.g) < math.Abs(p.g[k+1]) {
			continue // the tail of a stronger edge, not a peak
		}
		hits = append(hits, h)
	}
	l, st, ok := edgeLine(hits)
	if !ok || st < outerStrength*strength {
		return line{}, false
	}
	on := 0
	for _, h := range hits {
		if math.Abs((h.x-l.px)*(-l.dy)+(h.y-l.py)*l.dx) <= 1.5 {
			on++
		}
	}
	if on < outerOn*len(profiles)/10 {
		return line{}, false
	}
	if angleBetween(l, inner) > 3 {
		return line{}, false
	}
	// The outer line's midpoint must lie outward of the inner line.
	if d := ((l.px-inner.px)*inx + (l.py-inner.py)*iny) / den * out; d < outerGap {
		return line{}, false
	}
	return l, true
}

// edgeLine fits a line through the hits of the majority's contrast sign
// whose strength is 6 grey levels or more, with one round of outlier
// removal (text or a finger next to the edge), and returns it with the
// median strength of the hits kept. Under a third of the samples kept is
// no edge.
func edgeLine(hits []edgeHit) (line, float64, bool) {
	sum := 0.0
	for _, h := range hits {
		sum += h.g
	}
	sign := math.Copysign(1, sum)
	var xs, ys, gs []float64
	for _, h := range hits {
		if h.g*sign >= 6 {
			xs = append(xs, h.x)
			ys = append(ys, h.y)
			gs = append(gs, h.g*sign)
		}
	}
	if len(xs) < refineSamples/3 {
		return line{}, 0, false
	}
	l := fitLine(xs, ys)
	res := make([]float64, len(xs))
	for i := range xs {
		res[i] = math.Abs((xs[i]-l.px)*(-l.dy) + (ys[i]-l.py)*l.dx)
	}
	sorted := append([]float64(nil), res...)
	sort.Float64s(sorted)
	limit := math.Max(1.5, 3*sorted[len(sorted)/2])
	var fx, fy, fg []float64
	for i := range xs {
		if res[i] <= limit {
			fx = append(fx, xs[i])
			fy = append(fy, ys[i])
			fg = append(fg, gs[i])
		}
	}
	if len(fx) < refineSamples/3 {
		return line{}, 0, false
	}
	sort.Float64s(fg)
	return fitLine(fx, fy), fg[len(fg)/2], true
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
