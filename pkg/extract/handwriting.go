package extract

import (
	"image"

	"docsuite/pkg/ocr"
)

// Telling a registration stamp completed by hand from a printed one. A
// stamp's heading is printed; a printed stamp's other lines stand upright
// like it, while handwriting leans. The lean of a block of text is the
// shear that makes its strokes most vertical: the columns of dark pixels,
// sheared, are then most concentrated (the sum of squared column counts
// is largest).

// slantGap is how much more (in horizontal pixels per pixel of height)
// the lines below the heading must lean than the heading for the stamp to
// count as handwritten.
const slantGap = 0.09

// handwritten reports whether the lines after a stamp's first lean more
// than the first (its printed heading).
func handwritten(img *image.Gray, lines []ocr.Line) bool {
	if len(lines) < 2 {
		return false
	}
	head := lineBox(lines[0])
	body := lineBox(lines[1])
	for _, l := range lines[2:] {
		body = body.Union(lineBox(l))
	}
	return slant(img, body)-slant(img, head) > slantGap
}

// slant is the shear (x shift per pixel of height, positive leaning
// right) that sets the dark strokes of r most upright.
func slant(img *image.Gray, r image.Rectangle) float64 {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return 0
	}
	yc := float64(r.Min.Y+r.Max.Y) / 2
	best, bestScore := 0.0, -1.0
	cols := make([]float64, r.Dx()+2*r.Dy()+2)
	off := r.Dy() + 1
	for k := -0.5; k <= 0.5001; k += 0.025 {
		for i := range cols {
			cols[i] = 0
		}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			shift := k * (float64(y) - yc)
			row := img.Pix[img.PixOffset(r.Min.X, y):]
			for x := 0; x < r.Dx(); x++ {
				if row[x] < 128 {
					c := int(float64(x)+shift+0.5) + off
					if c >= 0 && c < len(cols) {
						cols[c]++
					}
				}
			}
		}
		score := 0.0
		for _, c := range cols {
			score += c * c
		}
		if score > bestScore {
			best, bestScore = k, score
		}
	}
	// A right-leaning stroke's top lies right of its bottom: shifting rows
	// by k*(y - yc) straightens it when k is positive.
	return best
}
