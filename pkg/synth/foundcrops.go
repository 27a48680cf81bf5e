package synth

import (
	"context"
	"fmt"
	"image"

	"docsuite/pkg/geom"
)

// FoundCut is one document a cropper found on a scene's photograph: the
// index of the scene document it matches and the quad it cut, corners in
// the order of that document's Lying quad (see OrderLike).
type FoundCut struct {
	Doc  int
	Quad geom.Quad
}

// Finder finds the documents on a scene's photograph as a cropper would
// and says which of the scene's documents each one is. Documents it cut
// too far from any scene document are left out by it.
type Finder func(ctx context.Context, img image.Image, docs []SceneDoc) ([]FoundCut, error)

// FoundCrops renders scene i like Crops, hands its photograph to find and
// cuts every quad find returns, at most size pixels on its longer side.
// Each crop is labelled with the matched document's type and rotation, so
// a classifier can be taught on crops cut as the cropper cuts them (a
// finger across a card, a corner lost under another document, a margin of
// table) rather than along the true corners.
func (g *Generator) FoundCrops(ctx context.Context, i, size int, find Finder) ([]Crop, error) {
	sc, img, err := g.photo(ctx, i)
	if err != nil {
		return nil, err
	}
	cuts, err := find(ctx, img, sc.Docs)
	if err != nil {
		return nil, fmt.Errorf("synth: find documents on scene %d: %w", i, err)
	}
	r := NewRand(g.cfg.Seed, uint64(i), 0xC80B)
	var out []Crop
	for _, c := range cuts {
		if c.Doc < 0 || c.Doc >= len(sc.Docs) {
			return nil, fmt.Errorf("synth: scene %d has no document %d", i, c.Doc)
		}
		d := sc.Docs[c.Doc]
		crop, err := cutQuad(img, c.Quad, size, 0, r)
		if err != nil {
			return nil, err
		}
		out = append(out, Crop{Type: d.Type, Rotation: d.Rotation, Img: crop, Fields: d.Fields})
	}
	return out, nil
}

// OrderLike returns q's corners in the order that puts each nearest the
// corner of ref with the same index, among the eight orders that keep q a
// quadrilateral (the four turns of its ring, each read either way round).
// Cut along the result, a found quad gives the document as ref lies.
func OrderLike(q, ref geom.Quad) geom.Quad {
	ring := [4]int{0, 1, 3, 2} // TL, TR, BR, BL around the quad
	best, bestD := q, -1.0
	for start := 0; start < 4; start++ {
		for _, dir := range []int{1, 3} {
			var c geom.Quad
			var d float64
			for k := 0; k < 4; k++ {
				// ring position k of ref takes ring position start+dir*k of q.
				src := q[ring[(start+dir*k)%4]]
				c[ring[k]] = src
				dx, dy := src.X-ref[ring[k]].X, src.Y-ref[ring[k]].Y
				d += dx*dx + dy*dy
			}
			if bestD < 0 || d < bestD {
				best, bestD = c, d
			}
		}
	}
	return best
}
