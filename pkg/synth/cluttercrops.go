package synth

import (
	"context"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// ClutterCrops renders scene i like Crops and cuts out the objects on its
// table instead of its documents, as the cropper cuts them when it takes
// one for a document: a phone or a coin whole with a margin, a piece of a
// pen with the table on both sides (objects partly out of the photograph or under a
// document are left out). Each is a not_document crop, so the
// classifier learns that a pen's piece or a phone's screen is no document
// (answered empty or other before). Scenes without clutter give none.
func (g *Generator) ClutterCrops(ctx context.Context, i, size int, jitter float64) ([]Crop, error) {
	sc, img, err := g.photo(ctx, i)
	if err != nil {
		return nil, err
	}
	r := NewRand(g.cfg.Seed, uint64(i), 0xC80A)
	var out []Crop
	for _, c := range sc.Clutter {
		q := c.Quad
		if c.Kind == "pen" {
			q = penPiece(q, r)
		} else {
			q = grow(q, r.Range(1.05, 1.3))
		}
		if !inside(q, float64(img.Rect.Dx()), float64(img.Rect.Dy()), 0) || underDocument(q, sc.Docs) {
			continue // partly out of the photograph, or under a document (drawn before them)
		}
		crop, err := cutQuad(img, q, size, jitter, r)
		if err != nil {
			return nil, err
		}
		out = append(out, Crop{Type: doctypes.NotDocument, Img: crop, Fields: map[string]string{}})
	}
	return out, nil
}

// penPiece picks a piece of a pen's outline (running from TL to TR): 2 to
// 6 times as long as the pen is wide, and 1.5 to 3 times its width across.
func penPiece(q geom.Quad, r *Rand) geom.Quad {
	l, w := q.Size()
	s := min(1, r.Range(2, 6)*w/l)
	t0 := r.Range(0, 1-s)
	f := r.Range(1.5, 3)
	v0, v1 := 0.5-f/2, 0.5+f/2
	return geom.Quad{q.At(t0, v0), q.At(t0+s, v0), q.At(t0, v1), q.At(t0+s, v1)}
}

// underDocument reports whether any of a 6 × 6 grid of points over q lies
// on one of the documents.
func underDocument(q geom.Quad, docs []SceneDoc) bool {
	for _, d := range docs {
		for i := 0; i <= 5; i++ {
			for j := 0; j <= 5; j++ {
				if inQuad(d.Lying, q.At(float64(i)/5, float64(j)/5)) {
					return true
				}
			}
		}
	}
	return false
}

// inQuad reports whether p lies in the convex quad q (TL, TR, BL, BR).
func inQuad(q geom.Quad, p geom.Point) bool {
	ring := [4]geom.Point{q[0], q[1], q[3], q[2]}
	sign := 0.0
	for k := range ring {
		a, b := ring[k], ring[(k+1)%4]
		c := (b.X-a.X)*(p.Y-a.Y) - (b.Y-a.Y)*(p.X-a.X)
		if c == 0 {
			continue
		}
		if sign == 0 {
			sign = c
		} else if sign*c < 0 {
			return false
		}
	}
	return true
}

// grow scales a quad about its centre.
func grow(q geom.Quad, f float64) geom.Quad {
	var cx, cy float64
	for _, p := range q {
		cx, cy = cx+p.X/4, cy+p.Y/4
	}
	for k, p := range q {
		q[k] = geom.Point{X: cx + (p.X-cx)*f, Y: cy + (p.Y-cy)*f}
	}
	return q
}
