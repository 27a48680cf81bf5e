package extract

import (
	"image"

	"docsuite/pkg/ocr"
)

// Telling a registration stamp completed by hand from a printed one. A
// stamp's heading is printed; a printed stamp's other lines are in the
// same stamp-pad ink and stand upright like it, while handwriting is in a
// pen's darker ink and leans. The lean of a block of text is the
// shear that makes its strokes most vertical: the columns of dark pixels,
// sheared, are then most concentrated (the sum of squared column counts
// is largest).

// slantGap is how much more (in horizontal pixels per pixel of height)
// the lines below the heading must lean than the heading, their ink being
// at least leanInk darker, for the stamp to count as handwritten; inkGap
// is how much darker (grey levels of the ink's darkest fifth) suffices
// alone. Chosen on factory pages of seed 4404 (flat scans, 55 stamps):
// printed stamps leaned at most 0.23 more and were at most 8.5 darker
// (all but one under 2), handwritten ones at least 8.2 darker.
const (
	slantGap = 0.25
	leanInk  = 2
	inkGap   = 5
)

// handwritten reports whether the lines after a stamp's first (its
// printed heading) were written by hand: they lean more than the heading,
// or their ink is darker than the stamp's (a pen's, not the stamp pad's).
func handwritten(s stamp, lines []ocr.Line) bool {
	lean, dark := handFeatures(s, lines)
	return dark > inkGap || (lean > slantGap && dark > leanInk)
}

// handFeatures are how much more the lines after the first lean than the
// first, and how much darker their ink is.
func handFeatures(s stamp, lines []ocr.Line) (lean, dark float64) {
	if len(lines) < 2 {
		return 0, 0
	}
	head := lineBox(lines[0])
	body := lineBox(lines[1])
	for _, l := range lines[2:] {
		body = body.Union(lineBox(l))
	}
	return slant(s.img, body) - slant(s.img, head), inkLevel(s, head) - inkLevel(s, body)
}

// inkLevel is the brightness of the darkest fifth of the ink in r (the
// pixels the ink-on-white picture marks).
func inkLevel(s stamp, r image.Rectangle) float64 {
	r = r.Intersect(s.img.Bounds())
	var hist [256]int
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if s.img.GrayAt(x, y).Y >= 128 {
				continue
			}
			i := s.colour.PixOffset(x, y)
			lum := (299*int(s.colour.Pix[i]) + 587*int(s.colour.Pix[i+1]) + 114*int(s.colour.Pix[i+2])) / 1000
			hist[lum]++
			n++
		}
	}
	if n == 0 {
		return 255
	}
	// The mean of the darkest fifth.
	want, sum, got := max(n/5, 1), 0, 0
	for v := 0; v < 256 && got < want; v++ {
		take := min(hist[v], want-got)
		sum += take * v
		got += take
	}
	return float64(sum) / float64(got)
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
