package fraud

import (
	"fmt"
	"image"
	"math"

	"docsuite/pkg/geom"
	"docsuite/pkg/synth"
)

// forms reads what the checks need from the forms of the document types:
// the factory's templates (pkg/synth), the one description of the forms in
// the project. photos holds where a type's form prints the holder's
// portrait, as fractions (x0, y0, x1, y1) of the upright document (types
// whose portrait is optional or small, and spreads that may be shown by
// halves, where the box would move, have none); zoned the types whose form
// has a machine-readable zone.
func forms() (photos map[string][4]float64, zoned map[string]bool, err error) {
	cat, err := synth.LoadCatalogue()
	if err != nil {
		return nil, nil, fmt.Errorf("fraud: templates: %w", err)
	}
	photos, zoned = map[string][4]float64{}, map[string]bool{}
	for _, t := range cat.Types() {
		tpl, ok := cat.Get(t)
		if !ok {
			continue
		}
		for _, e := range tpl.Elements {
			if e.Kind == "mrz" {
				zoned[t] = true
			}
		}
		if tpl.Half != nil || tpl.SizeMM[0] == 0 || tpl.SizeMM[1] == 0 {
			continue
		}
		for _, e := range tpl.Elements {
			if e.Kind == "photo" && e.Prob == 0 && e.Box[2] > 15 {
				photos[t] = [4]float64{e.Box[0] / tpl.SizeMM[0], e.Box[1] / tpl.SizeMM[1],
					(e.Box[0] + e.Box[2]) / tpl.SizeMM[0], (e.Box[1] + e.Box[3]) / tpl.SizeMM[1]}
				break
			}
		}
	}
	return photos, zoned, nil
}

// fracBox maps a box given as fractions of the upright document onto the
// page through the document's quad (TL, TR, BL, BR of the upright
// document; bilinear) and returns its bounding box.
func fracBox(q geom.Quad, f [4]float64) image.Rectangle {
	at := func(u, v float64) geom.Point {
		top := geom.Point{X: q[0].X + (q[1].X-q[0].X)*u, Y: q[0].Y + (q[1].Y-q[0].Y)*u}
		bot := geom.Point{X: q[2].X + (q[3].X-q[2].X)*u, Y: q[2].Y + (q[3].Y-q[2].Y)*u}
		return geom.Point{X: top.X + (bot.X-top.X)*v, Y: top.Y + (bot.Y-top.Y)*v}
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range []geom.Point{at(f[0], f[1]), at(f[2], f[1]), at(f[0], f[3]), at(f[2], f[3])} {
		x0, y0, x1, y1 = math.Min(x0, p.X), math.Min(y0, p.Y), math.Max(x1, p.X), math.Max(y1, p.Y)
	}
	return image.Rect(int(x0), int(y0), int(math.Ceil(x1)), int(math.Ceil(y1)))
}
