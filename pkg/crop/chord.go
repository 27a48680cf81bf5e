package crop

import (
	"math"

	"docsuite/pkg/geom"
)

// maxNotches bounds the notches a region's chords are drawn between, and
// chordDepth how many chords deep a cut is looked for (three cards in a
// row take two).
const (
	maxNotches = 5
	chordDepth = 2
)

// notch is a dent in a region's outline: the pixel of a gap between the
// region and its convex hull that lies deepest inside the hull.
type notch struct {
	at    geom.Point
	depth float64
}

// chordSplit cuts a region (pixel indices) that fills its quadrilateral
// poorly along straight chords between its notches, when no outline
// parts it: two documents overlapping, the upper one's edge unseen by the
// network, make one region whose outline turns inwards where the two
// meet; the chord between those two dents runs along the hidden edge. A
// part still filling its quadrilateral less than MinFill is cut again,
// up to chordDepth chords deep. The best cut, by the area-weighted fill
// of its parts, is returned when every part fills its own quadrilateral
// at least MinFill with a document's shape and the weighted fill beats
// the region's by CutGain; nil otherwise.
func (s *splitter) chordSplit(px []int, b blob, fill float64) [][]int {
	parts, f := s.bestChords(px, b, chordDepth)
	if parts == nil || f < fill+s.o.CutGain {
		return nil
	}
	return parts
}

// bestChords returns the cut of a region into parts that all fill their
// quadrilaterals at least MinFill with the best area-weighted fill, and
// that fill; nil when there is none within depth chords.
func (s *splitter) bestChords(px []int, b blob, depth int) ([][]int, float64) {
	if depth == 0 {
		return nil, 0
	}
	hull := convexHull(b.pts)
	if len(hull) < 3 {
		return nil, 0
	}
	ns := s.notches(px, hull, b.area)
	var best [][]int
	bestFill := 0.0
	for i := range ns {
		for j := i + 1; j < len(ns); j++ {
			parts := s.connected(cutAlong(px, s.w, ns[i].at, ns[j].at))
			if len(parts) < 2 {
				continue
			}
			var leaves [][]int
			sum, area, ok := 0.0, 0.0, true
			for _, p := range parts {
				pb := s.describe(p)
				f, shaped := s.leaf(pb)
				if !shaped || f < s.o.MinFill {
					// Not a document as it is: cut further, or the
					// chord ran across a document.
					sub, sf := s.bestChords(p, pb, depth-1)
					if sub == nil {
						ok = false
						break
					}
					leaves = append(leaves, sub...)
					sum += sf * float64(len(p))
					area += float64(len(p))
					continue
				}
				leaves = append(leaves, p)
				sum += f * float64(len(p))
				area += float64(len(p))
			}
			if ok && area > 0 && sum/area > bestFill {
				best, bestFill = leaves, sum/area
			}
		}
	}
	return best, bestFill
}

// leaf is how well a part fills its enclosing quadrilateral, and whether
// that quadrilateral has a document's shape (angles and proportions, as
// the junk checks want them).
func (s *splitter) leaf(b blob) (float64, bool) {
	q, ok := reduceToQuad(convexHull(b.pts))
	if !ok || q.Area() <= 0 || !quadShape(q, s.o.MaxAspect) {
		return 0, false
	}
	return float64(b.area) / q.Area(), true
}

// notches finds the dents of a region (px, marked into s.in for the
// search) in its convex hull: each 4-connected gap between the two of at
// least a few pixels gives its deepest pixels inside the hull (deepest),
// those at least 3 px and 8 % of the square root of the region's area
// deep; the deepest maxNotches are returned.
func (s *splitter) notches(px []int, hull []geom.Point, area int) []notch {
	// The hull's bounding box, in which the gaps are searched.
	x0, y0, x1, y1 := s.w, s.h, 0, 0
	for _, p := range hull {
		x0, y0 = min(x0, int(p.X)), min(y0, int(p.Y))
		x1, y1 = max(x1, int(math.Ceil(p.X))), max(y1, int(math.Ceil(p.Y)))
	}
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, s.w), min(y1, s.h)
	bw, bh := x1-x0, y1-y0
	if bw <= 0 || bh <= 0 {
		return nil
	}
	for _, p := range px {
		s.in[p] = true
	}
	// gap marks the box's pixels inside the hull but not in the region.
	gap := make([]bool, bw*bh)
	for y := range bh {
		for x := range bw {
			c := geom.Point{X: float64(x0+x) + 0.5, Y: float64(y0+y) + 0.5}
			gap[y*bw+x] = !s.in[(y0+y)*s.w+x0+x] && insideHull(hull, c)
		}
	}
	for _, p := range px {
		s.in[p] = false
	}
	minDepth := max(3, 0.08*math.Sqrt(float64(area)))
	var out []notch
	seen := make([]bool, bw*bh)
	var stack []int
	for start := range gap {
		if !gap[start] || seen[start] {
			continue
		}
		seen[start] = true
		stack = append(stack[:0], start)
		var comp []notch
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := k%bw, k/bw
			c := geom.Point{X: float64(x0+x) + 0.5, Y: float64(y0+y) + 0.5}
			comp = append(comp, notch{at: c, depth: depthIn(hull, c)})
			for _, q := range [4]int{k - 1, k + 1, k - bw, k + bw} {
				if q < 0 || q >= len(gap) || (q == k-1 && x == 0) || (q == k+1 && x == bw-1) {
					continue
				}
				if gap[q] && !seen[q] {
					seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		if len(comp) >= 4 {
			out = append(out, deepest(comp, minDepth)...)
		}
	}
	// Deepest first; ties by position.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && deeper(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if len(out) > maxNotches {
		out = out[:maxNotches]
	}
	return out
}

// insideHull reports whether c lies inside the convex polygon hull (in
// convexHull's order).
func insideHull(hull []geom.Point, c geom.Point) bool {
	for i := range hull {
		if geom.Cross(hull[i], hull[(i+1)%len(hull)], c) < 0 {
			return false
		}
	}
	return true
}

// deepest returns the notches of one gap: its deepest pixel, then each
// next deepest that stands clear of those already taken (farther from
// each than its depth and two pixels): a gap between the union of three
// cards in a row and its hull holds two dents, one at each place two
// cards meet, while a gap with one dent gets shallower away from it, and
// its next deepest pixel lies at the rim of the first's reach.
func deepest(comp []notch, minDepth float64) []notch {
	var out []notch
	for len(out) < 3 {
		best := notch{depth: -1}
		for _, c := range comp {
			if c.depth <= best.depth {
				continue
			}
			clear := true
			for _, n := range out {
				if math.Hypot(c.at.X-n.at.X, c.at.Y-n.at.Y) <= n.depth {
					clear = false
					break
				}
			}
			if clear {
				best = c
			}
		}
		if best.depth < minDepth {
			break
		}
		rim := false
		for _, n := range out {
			if math.Hypot(best.at.X-n.at.X, best.at.Y-n.at.Y) <= n.depth+2 {
				rim = true
			}
		}
		if rim {
			break
		}
		out = append(out, best)
	}
	return out
}

func deeper(a, b notch) bool {
	if a.depth != b.depth {
		return a.depth > b.depth
	}
	if a.at.Y != b.at.Y {
		return a.at.Y < b.at.Y
	}
	return a.at.X < b.at.X
}

// depthIn is the distance from c, inside the convex polygon hull, to its
// nearest side.
func depthIn(hull []geom.Point, c geom.Point) float64 {
	d2 := math.Inf(1)
	for i := range hull {
		d2 = min(d2, segmentDistance2(hull[i], hull[(i+1)%len(hull)], c))
	}
	return math.Sqrt(d2)
}

// segmentDistance2 is the squared distance from p to the segment ab (the
// notch search and the cuts compare it for every pixel of a region: no
// square root per pixel).
func segmentDistance2(a, b, p geom.Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = min(1, max(0, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l2))
	}
	ex, ey := p.X-(a.X+t*dx), p.Y-(a.Y+t*dy)
	return ex*ex + ey*ey
}

// cutAlong returns the pixels of px (of a page w wide) farther than one
// pixel from the segment ab lengthened by two pixels at each end (its ends
// lie in the gaps just outside the region: lengthened, the cut leaves no
// corner for the parts to touch through).
func cutAlong(px []int, w int, a, b geom.Point) []int {
	if l := math.Hypot(b.X-a.X, b.Y-a.Y); l > 0 {
		ux, uy := 2*(b.X-a.X)/l, 2*(b.Y-a.Y)/l
		a = geom.Point{X: a.X - ux, Y: a.Y - uy}
		b = geom.Point{X: b.X + ux, Y: b.Y + uy}
	}
	out := make([]int, 0, len(px))
	for _, p := range px {
		c := geom.Point{X: float64(p%w) + 0.5, Y: float64(p/w) + 0.5}
		if segmentDistance2(a, b, c) > 1 {
			out = append(out, p)
		}
	}
	return out
}
