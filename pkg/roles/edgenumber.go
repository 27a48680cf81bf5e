package roles

import (
	"context"
	"fmt"
	"image"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/ppocr"
)

// The edge number: a Russian internal passport prints its series and
// number (two, two and six digits) in red along the right edge of the
// photo page, reading upwards, and the factory draws it on every page of
// a spread. At a photograph's resolution the page's captions are too small
// to read, but those digits are large, and no other catalogue document
// prints ten digits down its right edge: where docnet's 96-pixel picture
// mistakes a real passport for a CIS one or for `other`, the number says
// which family it is (classify.Evidence.EdgeNumber).
const (
	// edgeStrip is how far in from the right edge, as a share of the
	// upright crop's width, a column's centre may lie.
	edgeStrip = 0.2
	// edgeColumnAspect is the least height, in widths, of a detected
	// box that starts a column: a line of text turned on its side.
	edgeColumnAspect = 2
	// edgeJoinGap is the largest gap, in column widths, between a column
	// and a box that continues it (the spaces between the series' pairs
	// and the number).
	edgeJoinGap = 2
	// edgeMinDigits and edgeMaxDigits bound the digits of a reading that
	// counts: ten, or nine when the recogniser loses one at the strip's end.
	edgeMinDigits = 9
	edgeMaxDigits = 10
	// edgeMinConfidence is the least mean character probability of a
	// reading that counts.
	edgeMinConfidence = 0.9
)

// edgeColumns returns the columns of text along the right edge of the
// crop turned upright, in its coordinates (rects are the detected lines
// turned, tw the turned crop's width): each tall, narrow box whose centre
// lies in the right edgeStrip, grown by the boxes stacked in line with it
// (overlapping half its width at least, no wider than twice it, at most
// edgeJoinGap widths above or below). Columns that grow into one another
// are returned once.
func edgeColumns(rects []image.Rectangle, tw float64) []image.Rectangle {
	var cols []image.Rectangle
	for _, r := range rects {
		if r.Dy() < edgeColumnAspect*r.Dx() || float64(r.Min.X+r.Max.X)/2 < (1-edgeStrip)*tw {
			continue
		}
		c := r
		for grown := true; grown; {
			grown = false
			for _, o := range rects {
				if o.In(c) || o.Dx() > 2*c.Dx() {
					continue
				}
				overlap := min(o.Max.X, c.Max.X) - max(o.Min.X, c.Min.X)
				gap := max(o.Min.Y-c.Max.Y, c.Min.Y-o.Max.Y)
				if 2*overlap >= min(o.Dx(), c.Dx()) && gap <= edgeJoinGap*c.Dx() {
					c, grown = c.Union(o), true
				}
			}
		}
		seen := false
		for _, k := range cols {
			seen = seen || k == c
		}
		if !seen {
			cols = append(cols, c)
		}
	}
	return cols
}

// passportNumber reports whether text, read with digits alone, is a
// passport's series and number (see edgeMinDigits).
func passportNumber(text string) bool {
	n := 0
	for _, r := range text {
		if r < '0' || r > '9' {
			return false
		}
		n++
	}
	return n >= edgeMinDigits && n <= edgeMaxDigits
}

// edgeNumber reports whether a passport's series and number is read along
// the right edge of the crop turned by rot (views holds the crop and its
// text lines, detected on it unturned, and the turns already made): each
// edge column is turned a quarter either way and read with PP-OCR's
// digits.
func (z *zoneReader) edgeNumber(ctx context.Context, views *turnedViews, rot geom.Rotation) (bool, error) {
	rects, tw, _ := turnBoxes(views.boxes, views.img.Bounds(), rot)
	cols := edgeColumns(rects, tw)
	if len(cols) == 0 {
		return false, nil
	}
	up, err := views.image(rot)
	if err != nil {
		return false, fmt.Errorf("edge number: %w", err)
	}
	for _, c := range cols {
		col := cvimg.Sub(up, c.Add(up.Bounds().Min))
		for _, turn := range []geom.Rotation{3, 1} {
			line, err := cvimg.Turn(col, turn)
			if err != nil {
				return false, fmt.Errorf("edge number: %w", err)
			}
			l, err := z.eng.Recognize(ctx, ppocr.NewImage(line), line.Bounds(), z.digits)
			if err != nil {
				return false, fmt.Errorf("edge number: %w", err)
			}
			if l.Confidence >= edgeMinConfidence && passportNumber(l.Text) {
				return true, nil
			}
		}
	}
	return false, nil
}
