package crop

import (
	"math"
	"sort"

	"docsuite/pkg/geom"
)

// A region's enclosing quadrilateral is wrong when something joins it or
// cuts into it: a finger or a glare leaking out of a card drags a corner
// outward, and another document or a stick lying across a card's corner
// leaves a cut that the enclosing quadrilateral keeps as a side. The
// document's own sides are still there, as the longest straight runs of
// the region's outline. sidesQuad finds those runs (a Hough transform of
// the outline's points) and puts the quadrilateral on the four of them
// that best make a rectangle seen in perspective; the region's quad is
// replaced only when that quadrilateral lies along the outline markedly
// better than the enclosing one does.

// Thresholds of the side search, in network pixels and degrees.
const (
	// sideBand is how far an outline point may lie from a side and count
	// for it.
	sideBand = 1.5
	// sideLines is how many straight runs are looked for.
	sideLines = 8
	// sideMinVotes is the fewest outline points a run must have.
	sideMinVotes = 10
	// sideParallel is the largest angle between two opposite sides.
	sideParallel = 20.0
	// sideMinSupport is the least share of each side the outline must
	// follow (a side hidden by another document is still seen in part;
	// chosen on the tuning set: 0.4 to 0.5 best, 0.3 lets quads on the
	// wrong runs in, 0.6 and 0.7 keep more of the leaks).
	sideMinSupport = 0.5
	// sideMinHidden is the least share for a quad that holds the whole
	// region: what it adds is hidden under something lying across the
	// document, and a side may be mostly under it.
	sideMinHidden = 0.25
	// sideCover is the least share of the region's pixels the new quad
	// must hold (a finger or a glare may stay outside, the visible part of
	// a document below another not).
	sideCover = 0.85
	// sideLeak is how far the region must stick out of the new quad for
	// what lies outside it to be a leak (a finger, a glare); a region
	// sticking out less all round is a document whose border the straight
	// runs missed, and its enclosing quad stands.
	sideLeak = 4.0
	// sideOutset moves the chosen sides outward: a line fitted through
	// the outline's points lies about a pixel inside the extreme points
	// the enclosing quad rests on, to which coreInset is matched (chosen on
	// the tuning set: 0.5 and 1 px both better than none, 1 slightly).
	sideOutset = 1.0
	// sideSkew is what a degree between opposite sides costs a quad's
	// score: a rectangle's sides are parallel up to perspective, a cut
	// across a hidden corner is not.
	sideSkew = 0.01
	// sideGain is how much better the new quad must follow the outline
	// than the enclosing one, as a share of its perimeter.
	sideGain = 0.1
)

// sidesQuad returns a quadrilateral on the region's straight sides when it
// follows the outline (edge: the region's outer boundary points) at least
// sideGain better than q, the enclosing quadrilateral of the hull; ok is
// false when q stands.
func sidesQuad(rows, edge, hull []geom.Point, q geom.Quad, w, h int) (geom.Quad, bool) {
	if len(edge) < 4*sideMinVotes || len(hull) < 3 {
		return geom.Quad{}, false
	}
	near := newEdgeMap(edge, w, h)
	base := near.support(q)
	baseScore := base.mean - sideSkew*skew(q)
	if baseScore >= 1-sideGain {
		return geom.Quad{}, false
	}
	lines := houghLines(edge)
	if len(lines) < 4 {
		return geom.Quad{}, false
	}
	best, bestScore := geom.Quad{}, baseScore+sideGain
	found := false
	for _, pa := range parallelPairs(lines) {
		for _, pb := range parallelPairs(lines) {
			if pb[0] <= pa[0] || !crossing(lines[pa[0]], lines[pb[0]]) {
				continue
			}
			c, ok := quadOfLines(lines[pa[0]], lines[pb[0]], lines[pa[1]], lines[pb[1]])
			if !ok || !quadShape(c, 8) {
				continue
			}
			if inside(rows, c) < sideCover {
				continue
			}
			d := protrusion(hull, c)
			if d > sideBand && d < sideLeak {
				continue
			}
			least := sideMinSupport
			if d <= sideBand {
				least = sideMinHidden
			}
			s := near.support(c)
			score := s.mean - sideSkew*skew(c)
			if s.min < least || score < bestScore {
				continue
			}
			best, bestScore, found = c, score, true
		}
	}
	if !found {
		return geom.Quad{}, false
	}
	return offsetQuad(best, sideOutset), true
}

// inside is the share of a region's pixels that lie inside the convex quad
// q, the region given by its rows' outer corners (blob.pts: four points a
// row, left pair then right pair) and each row taken as one run.
func inside(rows []geom.Point, q geom.Quad) float64 {
	r := q.Ring()
	total, in := 0.0, 0.0
	for i := 0; i+3 < len(rows); i += 4 {
		y, l, rt := rows[i].Y+0.5, rows[i].X, rows[i+2].X
		total += rt - l
		lo, hi := math.Inf(1), math.Inf(-1)
		for k := range r {
			a, b := r[k], r[(k+1)%4]
			if (a.Y <= y) == (b.Y <= y) {
				continue
			}
			x := a.X + (y-a.Y)/(b.Y-a.Y)*(b.X-a.X)
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if hi > lo {
			in += math.Max(0, math.Min(rt, hi)-math.Max(l, lo))
		}
	}
	if total == 0 {
		return 0
	}
	return in / total
}

// skew is the larger angle, in degrees, between a quad's opposite sides:
// 0 for a rectangle seen square on, a few degrees for one seen in
// perspective, more for a quad cut across a corner.
func skew(q geom.Quad) float64 {
	r := q.Ring()
	var s [4]line
	for i := range r {
		s[i] = lineThrough(r[i], r[(i+1)%4])
	}
	return math.Max(angleBetween(s[0], s[2]), angleBetween(s[1], s[3]))
}

// protrusion is how far the polygon poly sticks out of the convex quad q
// at most, 0 when it lies inside.
func protrusion(poly []geom.Point, q geom.Quad) float64 {
	r := q.Ring()
	sign := 1.0
	if geom.SignedArea(r[:]) < 0 {
		sign = -1
	}
	depth := 0.0
	for _, p := range poly {
		out := math.Inf(-1)
		for i := range r {
			l := lineThrough(r[i], r[(i+1)%4])
			// Outward normal of a positively oriented ring: (dy, -dx).
			d := sign * ((p.X-l.px)*l.dy - (p.Y-l.py)*l.dx)
			out = math.Max(out, d)
		}
		depth = math.Max(depth, out)
	}
	return depth
}

// edgeMap marks the pixels within sideBand of an outline point.
type edgeMap struct {
	w, h int
	on   []bool
}

func newEdgeMap(edge []geom.Point, w, h int) edgeMap {
	m := edgeMap{w: w + 1, h: h + 1, on: make([]bool, (w+1)*(h+1))}
	r := int(math.Ceil(sideBand))
	for _, p := range edge {
		cx, cy := int(math.Round(p.X)), int(math.Round(p.Y))
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				x, y := cx+dx, cy+dy
				if x >= 0 && y >= 0 && x < m.w && y < m.h && float64(dx*dx+dy*dy) <= sideBand*sideBand+0.5 {
					m.on[y*m.w+x] = true
				}
			}
		}
	}
	return m
}

// runSupport is the share of a quad's perimeter the outline follows
// (weighted by length) and the least share of one side.
type runSupport struct{ mean, min float64 }

func (m edgeMap) support(q geom.Quad) runSupport {
	r := q.Ring()
	hits, total, least := 0.0, 0.0, 1.0
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		n := max(1, int(math.Hypot(b.X-a.X, b.Y-a.Y)))
		hit := 0
		for k := 0; k < n; k++ {
			t := (float64(k) + 0.5) / float64(n)
			x, y := int(math.Round(a.X+t*(b.X-a.X))), int(math.Round(a.Y+t*(b.Y-a.Y)))
			if x >= 0 && y >= 0 && x < m.w && y < m.h && m.on[y*m.w+x] {
				hit++
			}
		}
		hits += float64(hit)
		total += float64(n)
		least = math.Min(least, float64(hit)/float64(n))
	}
	return runSupport{mean: hits / total, min: least}
}

// sideLine is a straight run of the outline: a line and the outline
// points along it.
type sideLine struct {
	line
	votes int
}

// houghLines finds up to sideLines straight runs of the outline, strongest
// first: the Hough transform's peak, refined by a least-squares fit of the
// points near it, whose points are then taken out before the next search.
func houghLines(edge []geom.Point) []sideLine {
	const steps = 180
	// The accumulator spans the points' bounding box only, its corner at
	// (x0, y0).
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range edge {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	diag := int(math.Ceil(math.Hypot(x1-x0, y1-y0))) + 2
	cos, sin := make([]float64, steps), make([]float64, steps)
	for k := range steps {
		th := math.Pi * float64(k) / steps
		cos[k], sin[k] = math.Cos(th), math.Sin(th)
	}
	stride := 2*diag + 1
	acc := make([]int32, steps*stride)
	vote := func(p geom.Point, v int32) {
		for k := range steps {
			acc[k*stride+int(math.Round((p.X-x0)*cos[k]+(p.Y-y0)*sin[k]))+diag] += v
		}
	}
	left := append([]geom.Point(nil), edge...)
	for _, p := range left {
		vote(p, 1)
	}
	var out []sideLine
	for len(out) < sideLines && len(left) >= sideMinVotes {
		bi := 0
		for i, v := range acc {
			if v > acc[bi] {
				bi = i
			}
		}
		if int(acc[bi]) < sideMinVotes {
			break
		}
		k, rho := bi/stride, float64(bi%stride-diag)
		// Points near the peak's line, then the line fitted to them.
		var xs, ys []float64
		for _, p := range left {
			if math.Abs((p.X-x0)*cos[k]+(p.Y-y0)*sin[k]-rho) <= sideBand {
				xs = append(xs, p.X)
				ys = append(ys, p.Y)
			}
		}
		l := fitLine(xs, ys)
		// The fitted line's points leave the accumulator.
		kept := left[:0]
		votes := 0
		for _, p := range left {
			if math.Abs((p.X-l.px)*(-l.dy)+(p.Y-l.py)*l.dx) <= sideBand {
				votes++
				vote(p, -1)
				continue
			}
			kept = append(kept, p)
		}
		left = kept
		if votes < sideMinVotes {
			break
		}
		out = append(out, sideLine{line: l, votes: votes})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].votes > out[j].votes })
	return out
}

// angleBetween is the angle between two lines' directions, 0 to 90
// degrees.
func angleBetween(a, b line) float64 {
	c := math.Abs(a.dx*b.dx + a.dy*b.dy)
	return math.Acos(math.Min(1, c)) * 180 / math.Pi
}

// parallelPairs lists the pairs of lines close to parallel and apart from
// each other, first index lower.
func parallelPairs(ls []sideLine) [][2]int {
	var out [][2]int
	for i := range ls {
		for j := i + 1; j < len(ls); j++ {
			if angleBetween(ls[i].line, ls[j].line) > sideParallel {
				continue
			}
			// Apart: the second line's point lies off the first line.
			d := math.Abs((ls[j].px-ls[i].px)*(-ls[i].dy) + (ls[j].py-ls[i].py)*ls[i].dx)
			if d < 4 {
				continue
			}
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// crossing reports whether two lines are far enough from parallel to be
// neighbouring sides of a document.
func crossing(a, b sideLine) bool { return angleBetween(a.line, b.line) >= 50 }

// quadOfLines intersects the sides a, b, c, d (a opposite c, b opposite d)
// into a quadrilateral, corners ordered TL, TR, BL, BR.
func quadOfLines(a, b, c, d sideLine) (geom.Quad, bool) {
	var ring [4]geom.Point
	sides := [4]line{a.line, b.line, c.line, d.line}
	for i := range sides {
		p, ok := meet(sides[i], sides[(i+1)%4])
		if !ok {
			return geom.Quad{}, false
		}
		ring[i] = p
	}
	return OrderCorners(ring), true
}
