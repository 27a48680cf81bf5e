package crop

import (
	"docsuite/pkg/geom"
)

// Thresholds of joinOccluded: how much of the joined quadrilateral the two
// pieces must cover (the rest is the occluder), how much of its sides the
// network must outline, and by how much more than either piece's.
const (
	occludedFill    = 0.7
	occludedOutline = 0.8
	occludedGain    = 0.1
)

// joinOccluded joins pairs of documents found that are the two pieces of
// one document crossed by something lying over it (a finger or a pen
// across a card): the network marks the occluder as no interior, so the
// card comes apart into two regions, each outlined on three sides only,
// as the occluder's edges are no document outline. Two regions are joined
// when the quadrilateral enclosing both has a document's shape, they cover
// occludedFill of it, and the network outlines occludedOutline of its
// sides, occludedGain more than it outlines either region's. Two
// documents lying apart are not joined (the enclosing quadrilateral's
// sides cross the background between them, where no outline is), nor two
// lying edge to edge (the network outlines the edge between them, so each
// is outlined all round). The best-outlined pair is joined first, until no
// pair qualifies.
func joinOccluded(cs []netCandidate, boundary []float32, size, w, h int, o NeuralOptions) []netCandidate {
	for {
		bi, bj, best := -1, -1, 0.0
		var joined netCandidate
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				c, ok := joinPair(cs[i], cs[j], boundary, size, w, h, o)
				if ok && c.outline > best {
					bi, bj, best, joined = i, j, c.outline, c
				}
			}
		}
		if bi < 0 {
			return cs
		}
		cs[bi] = joined
		cs = append(cs[:bj], cs[bj+1:]...)
	}
}

// joinPair returns the document a and b are pieces of, if they are (see
// joinOccluded).
func joinPair(a, b netCandidate, boundary []float32, size, w, h int, o NeuralOptions) (netCandidate, bool) {
	pts := make([]geom.Point, 0, 8)
	pts = append(pts, a.quad[:]...)
	pts = append(pts, b.quad[:]...)
	q, ok := reduceToQuad(convexHull(pts))
	if !ok || !quadShape(q, o.MaxAspect) {
		return netCandidate{}, false
	}
	qa := q.Area()
	if qa <= 0 || (a.area+b.area)/qa < occludedFill || a.area+b.area > 1.05*qa {
		return netCandidate{}, false
	}
	support := outlineSupport(boundary, size, w, h, q)
	if support < occludedOutline || support < max(a.outline, b.outline)+occludedGain {
		return netCandidate{}, false
	}
	score := (a.score*a.area + b.score*b.area) / (a.area + b.area)
	return netCandidate{
		region:  region{quad: q, score: score, area: qa, fill: (a.fill*a.area + b.fill*b.area) / qa},
		outline: support,
	}, true
}
