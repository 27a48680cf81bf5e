package crop

import (
	"math"
	"sort"

	"docsuite/pkg/geom"
)

// coreInset is how far, in network pixels, the outline band eats into a
// document's region: the training script draws the outline 3 px wide on
// the document's edge, so the region left of the interior is 1.5 px
// inside the true edge on every side.
const coreInset = 1.5

// region is one document found in the network's maps.
type region struct {
	// quad is in network pixels of the letterboxed page.
	quad geom.Quad
	// score is the mean interior probability over the region.
	score float64
	area  float64
	// fill is the share of its quad the region covers before it is grown.
	fill float64
}

// segment turns the interior and outline probability maps (size x size,
// row-major; the page is the w x h block at the top-left) into document
// quads: the candidates that pass the checks for size, shape, fill, score
// and outline, the two pieces of an occluded document joined
// (joinOccluded), largest first. A page whose interior covers PageFill of it
// is one page-filling document (nil) unless the candidates that pass
// account for PageSplit of that interior and none runs to the frame
// (unless the network sees it whole, outlined all round).
func segment(interior, boundary []float32, size, w, h int, o NeuralOptions) []region {
	cands, covered := netCandidates(interior, boundary, size, w, h, o)
	page := float64(w * h)
	var passed []netCandidate
	for _, c := range cands {
		if c.reject(o, page) == "" {
			passed = append(passed, c)
		}
	}
	if !o.NoJoin {
		passed = joinOccluded(passed, boundary, size, w, h, o)
	}
	var out []region
	var found float64
	inside := true
	for _, c := range passed {
		if c.area < o.EdgeMinArea*page && cutByFrame(boundary, size, w, h, c.quad) {
			continue
		}
		out = append(out, c.region)
		found += c.area
		inside = inside && (clearOfFrame(c.quad, w, h) || c.seenWhole())
	}
	if covered >= o.PageFill && (found < o.PageSplit*covered*page || !inside) {
		// The page is one document filling the frame (a scan, a tight
		// crop): what lies inside it are its parts. Documents that
		// together make up the interior and stay clear of the frame or are
		// outlined all round (two cards side by side on a small table, a
		// card above a passport spread near the frame's edge) are kept.
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].area > out[j].area })
	if len(out) > o.MaxDocs {
		out = out[:o.MaxDocs]
	}
	return out
}

// netCandidate is a region before the checks.
type netCandidate struct {
	region
	// outline is the share of its sides the network sees an outline along.
	outline float64
}

// outlinedSupport and outlinedScore are the outline support and mean
// interior probability of a region the network is sure of, which need
// only fill its quadrilateral OutlinedFill.
const (
	outlinedSupport = 0.8
	outlinedScore   = 0.9
)

// wholeFill and wholeSupport are how well a region must fill its
// quadrilateral and how much of its sides must show an outline for the
// network to have seen a whole document: a block of a page-filling scan
// has interior, not an outline, on its sides.
const (
	wholeFill    = 0.95
	wholeSupport = 0.95
)

// seenWhole reports whether the network sees the candidate as one whole
// document, outlined all round and filling its quadrilateral: such a
// document touching the frame is a document, not a block of a scan.
func (c netCandidate) seenWhole() bool {
	return c.fill >= wholeFill && c.outline >= wholeSupport && c.score >= outlinedScore
}

// reject names the first check a candidate fails ("" when it passes).
func (c netCandidate) reject(o NeuralOptions, page float64) string {
	switch {
	case c.fill < o.MinFill && !(c.fill >= o.OutlinedFill && c.outline >= outlinedSupport && c.score >= outlinedScore):
		return "fill"
	case c.score < o.MinScore:
		return "score"
	case c.area < o.MinArea*page:
		return "small"
	case c.area > o.MaxArea*page:
		return "large"
	case !quadShape(c.quad, o.MaxAspect):
		return "shape"
	case c.outline < o.MinOutline:
		return "outline"
	}
	return ""
}

// netCandidates finds the document candidates of the maps and the share of
// the page covered by interior. Every 4-connected region of interior
// minus outline is a piece of a document; a region filling its enclosing
// quadrilateral poorly is eroded apart into the documents it joins
// (splitter.decompose); pieces of one interior region whose union fills
// its enclosing quadrilateral well are one document (a passport spread
// whose fold the network took for an outline, a card crossed by a dark
// line), others stay apart (documents touching or overlapping). A
// document's pixels' convex hull is reduced to the enclosing
// quadrilateral (so a corner hidden by another document is restored) and
// grown back by the outline's inner half and the erosion.
func netCandidates(interior, boundary []float32, size, w, h int, o NeuralOptions) ([]netCandidate, float64) {
	t, tb := float32(o.Threshold), float32(o.OutlineThreshold)
	inside := make([]bool, w*h)
	mask := make([]bool, w*h)
	covered := 0
	for y := range h {
		for x := range w {
			i := y*size + x
			inside[y*w+x] = interior[i] > t
			mask[y*w+x] = interior[i] > t && boundary[i] <= tb
			if interior[i] > t {
				covered++
			}
		}
	}
	page := float64(w * h)
	// Core pixels: interior and no outline, eroded so that documents
	// whose outline band has a gap where they touch still come apart.
	for e := 0; e < o.Erode && w >= 3 && h >= 3; e++ {
		mask = erode(mask, w, h)
	}
	groups, _ := components(inside, w, h, 0, nil)
	labels, _ := components(mask, w, h, 0, nil)
	var sets [][]int
	for i, l := range labels {
		if l == 0 {
			continue
		}
		for len(sets) < l {
			sets = append(sets, nil)
		}
		sets[l-1] = append(sets[l-1], i)
	}
	minPixels := int(0.1 * o.MinArea * page)
	sp := newSplitter(interior, boundary, size, w, h, o, minPixels)
	var pieces []piece
	for _, px := range sets {
		if len(px) >= minPixels {
			pieces = append(pieces, sp.decompose(px, o.Erode)...)
		}
	}
	for i := range pieces {
		pieces[i].group = groups[pieces[i].seed]
	}
	pieces = mergePieces(pieces, o.MergeFill)
	var out []netCandidate
	for _, b := range pieces {
		hull := convexHull(b.pts)
		q0, ok := reduceToQuad(hull)
		if !ok {
			continue
		}
		fill := float64(b.area) / q0.Area()
		q := clampQuad(offsetQuad(q0, coreInset+float64(b.level)), float64(w), float64(h))
		c := netCandidate{
			region:  region{quad: q, score: b.sum / float64(b.area), area: q.Area(), fill: fill},
			outline: outlineSupport(boundary, size, w, h, q),
		}
		if !o.NoSides {
			if s, ok := sidesQuad(b.pts, b.edge, hull, q0, w, h); ok {
				c.quad = clampQuad(offsetQuad(s, coreInset+float64(b.level)), float64(w), float64(h))
			}
		}
		out = append(out, c)
	}
	return out, float64(covered) / page
}

// blob is one connected region of a mask.
type blob struct {
	// pts are the outer corners of each row's first and last pixel: their
	// convex hull encloses the region exactly.
	pts []geom.Point
	// edge are the points of its outline seen from the left and right of
	// each row and from above and below each column.
	edge []geom.Point
	area int
	sum  float64
	// seed is the region's first pixel (y*w + x); group the interior
	// region it lies in.
	seed, group int
}

// erode removes mask pixels with a 4-neighbour outside the mask; pixels
// on the frame only need their neighbour inside the frame (a document cut
// by the frame must still reach it).
func erode(mask []bool, w, h int) []bool {
	next := make([]bool, w*h)
	for y := range h {
		for x := range w {
			i := y*w + x
			next[i] = mask[i] && (x == 0 || mask[i-1]) && (x == w-1 || mask[i+1]) &&
				(y == 0 || mask[i-w]) && (y == h-1 || mask[i+w])
		}
	}
	return next
}

// components labels the 4-connected regions of mask (label 0: outside,
// regions from 1) and, when value is not nil, describes those of at least
// minPixels pixels, summing value over each.
func components(mask []bool, w, h, minPixels int, value func(x, y int) float64) ([]int, []blob) {
	labels := make([]int, w*h)
	rowMin, rowMax := make([]int, h), make([]int, h)
	var stack []int
	var out []blob
	next := 0
	for start := range labels {
		if labels[start] != 0 || !mask[start] {
			continue
		}
		next++
		for y := range rowMin {
			rowMin[y], rowMax[y] = w, -1
		}
		b := blob{seed: start}
		labels[start] = next
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := p%w, p/w
			b.area++
			if value != nil {
				b.sum += value(x, y)
			}
			rowMin[y], rowMax[y] = min(rowMin[y], x), max(rowMax[y], x)
			for _, q := range [4]int{p - 1, p + 1, p - w, p + w} {
				if q < 0 || q >= len(labels) || (q == p-1 && x == 0) || (q == p+1 && x == w-1) {
					continue
				}
				if labels[q] == 0 && mask[q] {
					labels[q] = next
					stack = append(stack, q)
				}
			}
		}
		if value == nil || b.area < minPixels {
			continue
		}
		for y := range rowMin {
			if rowMax[y] >= 0 {
				l, r := float64(rowMin[y]), float64(rowMax[y]+1)
				fy := float64(y)
				b.pts = append(b.pts, geom.Point{X: l, Y: fy}, geom.Point{X: l, Y: fy + 1},
					geom.Point{X: r, Y: fy}, geom.Point{X: r, Y: fy + 1})
			}
		}
		out = append(out, b)
	}
	return labels, out
}

// mergePieces joins pieces of one interior region while the best-filling
// pair's union covers at least minFill of its enclosing quadrilateral;
// the union keeps the erosion level of its larger part.
func mergePieces(ps []piece, minFill float64) []piece {
	for {
		bi, bj, best := -1, -1, minFill
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				if ps[i].group != ps[j].group || ps[i].group == 0 {
					continue
				}
				pts := append(append([]geom.Point(nil), ps[i].pts...), ps[j].pts...)
				q, ok := reduceToQuad(convexHull(pts))
				if !ok {
					continue
				}
				if f := float64(ps[i].area+ps[j].area) / q.Area(); f >= best {
					bi, bj, best = i, j, f
				}
			}
		}
		if bi < 0 {
			return ps
		}
		if ps[bj].area > ps[bi].area {
			ps[bi].level = ps[bj].level
		}
		ps[bi].pts = append(ps[bi].pts, ps[bj].pts...)
		ps[bi].edge = append(ps[bi].edge, ps[bj].edge...)
		ps[bi].area += ps[bj].area
		ps[bi].sum += ps[bj].sum
		ps = append(ps[:bj], ps[bj+1:]...)
	}
}

// quadShape rejects quads that cannot be a photographed rectangle: with
// extreme angles, tiny, or too elongated.
func quadShape(q geom.Quad, maxAspect float64) bool {
	ang, convex := interiorAngles(q)
	if !convex {
		return false
	}
	for _, a := range ang {
		if a < 40 || a > 140 {
			return false
		}
	}
	if w, h := q.Size(); w < 4 || h < 4 {
		return false
	}
	return aspect(q) <= maxAspect
}

// convexHull returns the convex hull of pts in counter-clockwise ring
// order (Andrew's monotone chain), without collinear points.
func convexHull(pts []geom.Point) []geom.Point {
	if len(pts) < 3 {
		return nil
	}
	p := append([]geom.Point(nil), pts...)
	sort.Slice(p, func(i, j int) bool {
		if p[i].X != p[j].X {
			return p[i].X < p[j].X
		}
		return p[i].Y < p[j].Y
	})
	hull := make([]geom.Point, 0, 2*len(p))
	for _, pass := range []int{0, 1} {
		start := len(hull)
		for i := range p {
			pt := p[i]
			if pass == 1 {
				pt = p[len(p)-1-i]
			}
			for len(hull) >= start+2 && geom.Cross(hull[len(hull)-2], hull[len(hull)-1], pt) <= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, pt)
		}
		hull = hull[:len(hull)-1]
	}
	if len(hull) < 3 {
		return nil
	}
	return hull
}

// reduceToQuad turns a convex polygon into a quadrilateral that encloses
// it: while it has more than four corners, the side whose removal (its
// two neighbours extended until they meet) adds the least area goes. A
// rectangle with rounded or hidden corners gets its sharp corners back.
func reduceToQuad(poly []geom.Point) (geom.Quad, bool) {
	p := append([]geom.Point(nil), poly...)
	for len(p) > 4 {
		n := len(p)
		best, bestCost := -1, math.Inf(1)
		var bestPt geom.Point
		for i := range p {
			a, b, c, d := p[(i+n-1)%n], p[i], p[(i+1)%n], p[(i+2)%n]
			x, ok := meet(lineThrough(a, b), lineThrough(c, d))
			if !ok {
				continue
			}
			// The extensions must go forward from b and backward from c.
			if (x.X-b.X)*(b.X-a.X)+(x.Y-b.Y)*(b.Y-a.Y) < 0 || (x.X-c.X)*(c.X-d.X)+(x.Y-c.Y)*(c.Y-d.Y) < 0 {
				continue
			}
			if cost := math.Abs(geom.Cross(b, c, x)) / 2; cost < bestCost {
				best, bestCost, bestPt = i, cost, x
			}
		}
		if best < 0 {
			// No side can go outward (cannot happen for a convex polygon
			// with more than four corners, kept as a guard): drop the
			// corner cutting off the least area.
			for i := range p {
				if cost := math.Abs(geom.Cross(p[(i+n-1)%n], p[i], p[(i+1)%n])); cost < bestCost {
					best, bestCost = i, cost
				}
			}
			p = append(p[:best], p[best+1:]...)
			continue
		}
		// Corners best and best+1 become the one meeting point.
		j := (best + 1) % n
		p[best] = bestPt
		p = append(p[:j], p[j+1:]...)
	}
	if len(p) != 4 {
		return geom.Quad{}, false
	}
	return OrderCorners([4]geom.Point(p)), true
}

// offsetQuad moves every side of q outward by d (inward for negative d).
func offsetQuad(q geom.Quad, d float64) geom.Quad {
	r := q.Ring()
	sign := 1.0
	if geom.SignedArea(r[:]) < 0 {
		sign = -1
	}
	var sides [4]line
	for i := range r {
		l := lineThrough(r[i], r[(i+1)%4])
		// For a positively oriented ring (clockwise on screen, y down) the
		// outward normal of direction (dx, dy) is (dy, -dx).
		nx, ny := sign*l.dy, -sign*l.dx
		l.px += d * nx
		l.py += d * ny
		sides[i] = l
	}
	var out [4]geom.Point
	for i := range r {
		p, ok := meet(sides[(i+3)%4], sides[i])
		if !ok {
			p = r[i]
		}
		out[i] = p
	}
	return geom.Quad{out[0], out[1], out[3], out[2]}
}

// clampQuad keeps the corners inside the w x h frame.
func clampQuad(q geom.Quad, w, h float64) geom.Quad {
	for i := range q {
		q[i].X = math.Min(math.Max(q[i].X, 0), w)
		q[i].Y = math.Min(math.Max(q[i].Y, 0), h)
	}
	return q
}
