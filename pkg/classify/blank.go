package classify

import (
	"image"
	"sort"

	"docsuite/pkg/doctypes"
)

// Blank-page evidence: a crop that is light paper of one tone, with no
// text line found on it, prints nothing, and no catalogue type is printed
// without print. docnet has not seen such a page as the whole image (its
// blank pages lie in scenes, or carry paper grain): on a page rendered
// pure white it gives `empty` under half its probability and the rest to
// near-white catalogue pages, so a blank page of a PDF was answered
// `empty` at 0.24, in the unsure band. docs/models.md, "A page that prints
// nothing", measures the thresholds on factory crops.
const (
	// FlatGrid is the longer side of the grid of cell means Flat looks at.
	FlatGrid = 64
	// FlatRange is the most luminance range (1st to 99th percentile of the
	// cells, 0-255) of a flat crop; the factory's documents, blank
	// passport pages and degraded crops included, span 16 or more.
	FlatRange = 8.0
	// FlatBorder is the share of the grid on each side Flat leaves out.
	FlatBorder = 0.05
	// FlatLight is the least luminance of the darker (1st percentile) cells
	// of a flat crop: paper, not a dark object or a lens cap.
	FlatLight = 200.0
)

// Flat reports whether img is light paper of one tone: the luminance of
// its cells (img averaged down to FlatGrid cells on its longer side, the
// outer FlatBorder left out) spans under FlatRange between the 1st and
// 99th percentiles, the 1st at least FlatLight.
func Flat(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return false
	}
	scale := float64(FlatGrid) / float64(max(b.Dx(), b.Dy()))
	w, h := max(1, int(float64(b.Dx())*scale)), max(1, int(float64(b.Dy())*scale))
	sum := make([]float64, w*h)
	count := make([]float64, w*h)
	// Every pixel counts once; a large page is sampled on a grid of at
	// most about 1,000 pixels a side, plenty for 64 cells.
	step := max(1, max(b.Dx(), b.Dy())/1024)
	for y := b.Min.Y; y < b.Max.Y; y += step {
		cy := min(h-1, int(float64(y-b.Min.Y)*scale))
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, _ := img.At(x, y).RGBA()
			cx := min(w-1, int(float64(x-b.Min.X)*scale))
			sum[cy*w+cx] += (299*float64(r) + 587*float64(g) + 114*float64(bl)) / 1000 / 257
			count[cy*w+cx]++
		}
	}
	// The outer FlatBorder of the cells on each side are left out: a
	// page cut a little loose shows the table along its edges.
	bx, by := int(FlatBorder*float64(w)), int(FlatBorder*float64(h))
	cells := make([]float64, 0, len(sum))
	for cy := by; cy < h-by; cy++ {
		for cx := bx; cx < w-bx; cx++ {
			if i := cy*w + cx; count[i] > 0 {
				cells = append(cells, sum[i]/count[i])
			}
		}
	}
	if len(cells) == 0 {
		return false
	}
	sort.Float64s(cells)
	lo, hi := cells[len(cells)/100], cells[len(cells)-1-len(cells)/100]
	return lo >= FlatLight && hi-lo < FlatRange
}

// ruleOutDocuments zeroes every catalogue type in p and renormalises it
// over the special classes; it leaves p as it is when they have nothing.
func ruleOutDocuments(classes []string, p []float64) {
	keepOnly(classes, p, doctypes.IsSpecial)
}
