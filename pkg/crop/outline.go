package crop

import "docsuite/pkg/geom"

// outlineSupport is the share of a quad's sides (those not on the frame)
// along which the network sees an outline: at each sample the largest
// outline probability within 2 px across the side must reach 0.3.
func outlineSupport(boundary []float32, size, w, h int, q geom.Quad) float64 {
	r := q.Ring()
	hit, n := 0, 0
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		if onFrameSide(a, b, w, h) {
			continue
		}
		hs, ns := sideOutline(boundary, size, w, h, a, b)
		hit, n = hit+hs, n+ns
	}
	if n == 0 {
		return 1
	}
	return float64(hit) / float64(n)
}

// sideOutline samples side ab at 24 points of its middle 80 % and counts
// those with an outline (at least 0.3) within two pixels across the side.
func sideOutline(boundary []float32, size, w, h int, a, b geom.Point) (hit, n int) {
	l := lineThrough(a, b)
	for k := 0; k < 24; k++ {
		t := 0.1 + 0.8*float64(k)/23
		x, y := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		best := float32(0)
		for d := -2.0; d <= 2; d++ {
			px, py := int(x-d*l.dy), int(y+d*l.dx)
			if px >= 0 && py >= 0 && px < w && py < h {
				best = max(best, boundary[py*size+px])
			}
		}
		n++
		if best >= 0.3 {
			hit++
		}
	}
	return hit, n
}

// clearOfFrame reports whether every corner of q lies at least 1 % of the
// page's longer side inside the w x h page: a block of a page-filling
// scan runs to the frame, a document lying on a table does not.
func clearOfFrame(q geom.Quad, w, h int) bool {
	m := 0.01 * float64(max(w, h))
	for _, p := range q {
		if p.X < m || p.Y < m || p.X > float64(w)-m || p.Y > float64(h)-m {
			return false
		}
	}
	return true
}

// cutByFrame reports whether the picture's edge cuts the region q off: a
// side of q runs along the frame and the network outlines less than
// frameCutOutline of it. A document lying whole in the picture, even
// against its edge, has its own outline there.
func cutByFrame(boundary []float32, size, w, h int, q geom.Quad) bool {
	r := q.Ring()
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		if !onFrameSide(a, b, w, h) {
			continue
		}
		if hit, n := sideOutline(boundary, size, w, h, a, b); float64(hit) < frameCutOutline*float64(n) {
			return true
		}
	}
	return false
}

// frameCutOutline is the share of a side along the frame the network must
// outline for the region not to be cut off there.
const frameCutOutline = 0.5
