package crop

import (
	"math"
	"sort"

	"docsuite/pkg/geom"
)

// WholePage is the quad of a whole w x h page, the item used when nothing
// document-like is found.
func WholePage(w, h int) geom.Quad {
	fw, fh := float64(w), float64(h)
	return geom.Quad{{X: 0, Y: 0}, {X: fw, Y: 0}, {X: 0, Y: fh}, {X: fw, Y: fh}}
}

// OrderCorners puts four corners into TL, TR, BL, BR order as they lie in
// the image: the corners are sorted clockwise around their centroid and the
// one nearest the image's top-left (smallest x+y) becomes TL.
func OrderCorners(pts [4]geom.Point) geom.Quad {
	var cx, cy float64
	for _, p := range pts {
		cx += p.X / 4
		cy += p.Y / 4
	}
	ring := pts
	// Image y points down, so increasing atan2 is clockwise on screen.
	sort.Slice(ring[:], func(i, j int) bool {
		return math.Atan2(ring[i].Y-cy, ring[i].X-cx) < math.Atan2(ring[j].Y-cy, ring[j].X-cx)
	})
	first := 0
	for i, p := range ring {
		if p.X+p.Y < ring[first].X+ring[first].Y {
			first = i
		}
	}
	tl, tr, br, bl := ring[first], ring[(first+1)%4], ring[(first+2)%4], ring[(first+3)%4]
	return geom.Quad{tl, tr, bl, br}
}

// interiorAngles returns the four interior angles of the quad in degrees,
// in ring order, and whether the quad is convex.
func interiorAngles(q geom.Quad) ([4]float64, bool) {
	r := q.Ring()
	var out [4]float64
	convex := true
	sgn := 0.0
	for i := range r {
		prev, cur, next := r[(i+3)%4], r[i], r[(i+1)%4]
		ax, ay := prev.X-cur.X, prev.Y-cur.Y
		bx, by := next.X-cur.X, next.Y-cur.Y
		la, lb := math.Hypot(ax, ay), math.Hypot(bx, by)
		if la == 0 || lb == 0 {
			return out, false
		}
		c := (ax*bx + ay*by) / (la * lb)
		out[i] = math.Acos(math.Max(-1, math.Min(1, c))) * 180 / math.Pi
		z := ax*by - ay*bx
		if sgn == 0 {
			sgn = math.Copysign(1, z)
		} else if math.Copysign(1, z) != sgn {
			convex = false
		}
	}
	return out, convex
}

func scaleQuad(q geom.Quad, s float64) geom.Quad {
	for i := range q {
		q[i].X *= s
		q[i].Y *= s
	}
	return q
}

// aspect is the ratio of q's longer mean side to its shorter (0 for a
// degenerate quad).
func aspect(q geom.Quad) float64 {
	w, h := q.Size()
	if min(w, h) <= 0 {
		return 0
	}
	return max(w, h) / min(w, h)
}
