package crop

import (
	"math"
	"sort"

	"docsuite/pkg/geom"
)

// A passport spread whose fold the network outlines comes back as its two
// pages, each a document of its own, the blank one answered empty. Two
// documents that meet along the whole of one side each, their outer sides
// running on straight across the seam and their areas alike, are the two
// halves of one: joinFolds puts them back together. Two cards laid edge
// to edge that exactly would be joined too; two documents overlapping
// meet along part of a side, or their outer sides break at the seam.
const (
	// foldAlongTol is how far (a share of the seam's length, and
	// foldMinPx pixels at least) the ends of the two halves' seam sides
	// may lie apart along the seam; foldAcrossTol how far across it (the
	// band along the fold that neither half holds).
	foldAlongTol, foldAcrossTol, foldMinPx = 0.04, 0.05, 6.0
	// foldLengthTol is the most the two seam sides' lengths may differ,
	// as a share of the longer.
	foldLengthTol = 0.08
	// foldBend is the most (degrees) an outer side may bend at the seam.
	foldBend = 4.0
	// foldAreaRatio is the least ratio of the smaller half's area to the
	// larger's.
	foldAreaRatio = 0.7
)

// joinFolds joins, pair by pair, documents that are two halves of one
// (see above), the pair's better score kept, and keeps the documents
// largest first.
func joinFolds(found []placedRegion) []placedRegion {
	changed := false
	for joined := true; joined; {
		joined = false
		for i := 0; i < len(found) && !joined; i++ {
			for j := i + 1; j < len(found) && !joined; j++ {
				q, ok := foldUnion(found[i].Quad, found[j].Quad)
				if !ok {
					continue
				}
				f := found[i]
				f.Quad = q
				f.Score = math.Max(found[i].Score, found[j].Score)
				f.scale = math.Max(found[i].scale, found[j].scale)
				found[i] = f
				found = append(found[:j], found[j+1:]...)
				joined, changed = true, true
			}
		}
	}
	if changed {
		sort.SliceStable(found, func(i, j int) bool { return found[i].Quad.Area() > found[j].Quad.Area() })
	}
	return found
}

// foldUnion returns the quadrilateral of a and b joined when they are two
// halves of one document meeting along a side of each.
func foldUnion(a, b geom.Quad) (geom.Quad, bool) {
	aa, ba := a.Area(), b.Area()
	if math.Min(aa, ba) < foldAreaRatio*math.Max(aa, ba) {
		return geom.Quad{}, false
	}
	ra, rb := a.Ring(), b.Ring()
	for i := range 4 {
		a0, a1 := ra[i], ra[(i+1)%4]
		la := dist(a0, a1)
		for j := range 4 {
			b0, b1 := rb[j], rb[(j+1)%4]
			lb := dist(b0, b1)
			if math.Abs(la-lb) > foldLengthTol*math.Max(la, lb) {
				continue
			}
			// Both rings run the same way round, so the shared side is
			// walked one way in a and the other way in b.
			l := math.Max(la, lb)
			if !seamEnd(a0, b1, a0, a1, l) || !seamEnd(a1, b0, a0, a1, l) {
				continue
			}
			// The outer corners in ring order: a's two beyond the seam,
			// then b's.
			ring := [4]geom.Point{ra[(i+2)%4], ra[(i+3)%4], rb[(j+2)%4], rb[(j+3)%4]}
			// The outer sides run straight on across the seam: at a0 (=b1)
			// from a's ra[i+3] to b's rb[j+2], at a1 (=b0) from b's rb[j+3]
			// to a's ra[i+2].
			if bend(ra[(i+3)%4], a0, rb[(j+2)%4]) > foldBend || bend(rb[(j+3)%4], a1, ra[(i+2)%4]) > foldBend {
				continue
			}
			return OrderCorners(ring), true
		}
	}
	return geom.Quad{}, false
}

// seamEnd reports whether p and q, ends of the two halves' seam sides,
// lie close enough along and across the seam a0 → a1 of length l.
func seamEnd(p, q, a0, a1 geom.Point, l float64) bool {
	d := dist(a0, a1)
	dx, dy := (a1.X-a0.X)/d, (a1.Y-a0.Y)/d
	ex, ey := q.X-p.X, q.Y-p.Y
	along, across := math.Abs(ex*dx+ey*dy), math.Abs(-ex*dy+ey*dx)
	return along <= math.Max(foldMinPx, foldAlongTol*l) && across <= math.Max(foldMinPx, foldAcrossTol*l)
}

// bend is the angle (degrees) by which the path p → m → q turns at m.
func bend(p, m, q geom.Point) float64 {
	a1 := math.Atan2(m.Y-p.Y, m.X-p.X)
	a2 := math.Atan2(q.Y-m.Y, q.X-m.X)
	d := math.Abs(a2-a1) * 180 / math.Pi
	if d > 180 {
		d = 360 - d
	}
	return d
}
