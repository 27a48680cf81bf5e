package synth

import (
	"context"
	"math"

	"docsuite/pkg/geom"
)

// Bounds of a page crop (PageCrops): how far each side of the view lies
// outside the document's bounding box, as a share of the box's size
// (negative: the frame cuts into the document), the least share of the
// view the document covers, the least share of the document the view
// keeps, and the largest in-plane angle of the document's top edge for
// which the view keeps the document's own turn.
const (
	pageMarginMin   = -0.12
	pageMarginMax   = 0.6
	pageMinCover    = 0.3
	pageMinKept     = 0.75
	pageMaxAngleDeg = 35
)

// PageCrops renders scene i like Crops and, when it holds exactly one
// document, cuts a loose, level view of the page around it: the page as
// the service classifies it when the cropper cuts nothing out (a closed
// passport held close to the camera, a card scanned on an A4 sheet). Each
// side of the view lies up to 0.6 of the document's size outside its
// bounding box, or up to 0.12 inside it where the frame cuts the
// document; the view is clipped to the photograph. It is labelled with
// the document's type and turn, and kept only where the document covers
// at least 0.3 of it, the view keeps at least three quarters of the
// document and the document lies within 35° of level (so the turn that
// makes it upright makes the view upright). Other scenes give none.
// Jitter is unused: the margins are the error.
func (g *Generator) PageCrops(ctx context.Context, i, size int, _ float64) ([]Crop, error) {
	sc, img, err := g.photo(ctx, i)
	if err != nil {
		return nil, err
	}
	if len(sc.Docs) != 1 {
		return nil, nil
	}
	d := sc.Docs[0]
	q := d.Lying
	if a := math.Atan2(q[geom.TR].Y-q[geom.TL].Y, q[geom.TR].X-q[geom.TL].X); math.Abs(a) > pageMaxAngleDeg*math.Pi/180 {
		return nil, nil
	}
	r := NewRand(g.cfg.Seed, uint64(i), 0xC80B)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		x0, y0 = math.Min(x0, p.X), math.Min(y0, p.Y)
		x1, y1 = math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	w, h := x1-x0, y1-y0
	margin := func(s float64) float64 { return s * r.Range(pageMarginMin, pageMarginMax) }
	W, H := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	v0 := geom.Point{X: math.Max(0, x0-margin(w)), Y: math.Max(0, y0-margin(h))}
	v1 := geom.Point{X: math.Min(W, x1+margin(w)), Y: math.Min(H, y1+margin(h))}
	if v1.X-v0.X < 16 || v1.Y-v0.Y < 16 {
		return nil, nil
	}
	view := geom.Quad{v0, {X: v1.X, Y: v0.Y}, {X: v0.X, Y: v1.Y}, v1}
	shared := geom.Overlap(view, q)
	if shared < pageMinCover*view.Area() || shared < pageMinKept*q.Area() {
		return nil, nil
	}
	crop, err := cutQuad(img, view, size, 0, r)
	if err != nil {
		return nil, err
	}
	return []Crop{{Type: d.Type, Rotation: d.Rotation, Img: crop, Fields: d.Fields}}, nil
}
