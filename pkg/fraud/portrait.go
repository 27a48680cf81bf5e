package fraud

import (
	"fmt"
	"math"

	"docsuite/pkg/synth"
)

// formBox is where a form prints the portrait: box as fractions (x0, y0,
// x1, y1) of a document whose width over height is aspect.
type formBox struct {
	aspect float64
	box    [4]float64
}

// forms reads what the checks need from the forms of the document types:
// the factory's templates (pkg/synth), the one description of the forms in
// the project. photos holds where a type's form prints the holder's
// portrait (types whose portrait is optional or small have none; a spread
// that may be shown by halves has one box for the spread and one for the
// half, when the portrait lies in it); zoned the types whose form has a
// machine-readable zone.
func forms() (photos map[string][]formBox, zoned map[string]bool, err error) {
	cat, err := synth.LoadCatalogue()
	if err != nil {
		return nil, nil, fmt.Errorf("fraud: templates: %w", err)
	}
	photos, zoned = map[string][]formBox{}, map[string]bool{}
	for _, t := range cat.Types() {
		tpl, ok := cat.Get(t)
		if !ok {
			continue
		}
		w, h := tpl.SizeMM[0], tpl.SizeMM[1]
		for _, e := range tpl.Elements {
			if e.Kind == "mrz" {
				zoned[t] = true
			}
			if e.Kind != "photo" || e.Prob != 0 || e.Box[2] <= 15 || w == 0 || h == 0 || len(photos[t]) > 0 {
				continue
			}
			x0, y0, x1, y1 := e.Box[0], e.Box[1], e.Box[0]+e.Box[2], e.Box[1]+e.Box[3]
			photos[t] = append(photos[t], formBox{aspect: w / h, box: [4]float64{x0 / w, y0 / h, x1 / w, y1 / h}})
			if hb := tpl.Half; hb != nil && x0 >= hb[0] && y0 >= hb[1] && x1 <= hb[0]+hb[2] && y1 <= hb[1]+hb[3] {
				photos[t] = append(photos[t], formBox{aspect: hb[2] / hb[3],
					box: [4]float64{(x0 - hb[0]) / hb[2], (y0 - hb[1]) / hb[3], (x1 - hb[0]) / hb[2], (y1 - hb[1]) / hb[3]}})
			}
		}
	}
	return photos, zoned, nil
}

// pick returns the form box whose aspect is closest to a document of
// width w and height h (a spread or its half).
func pick(boxes []formBox, w, h int) ([4]float64, bool) {
	best, bestD := [4]float64{}, math.Inf(1)
	for _, b := range boxes {
		if d := math.Abs(math.Log(float64(w) / float64(h) / b.aspect)); d < bestD {
			best, bestD = b.box, d
		}
	}
	return best, len(boxes) > 0 && h > 0
}
