package ocr

import (
	"image"
	"image/color"
)

// Ink is what is darker than the page's median grey by inkContrast
// levels or more; a page with less than inkShare of it is not read.
const (
	inkContrast = 60
	inkShare    = 0.0005
)

// inked says whether img holds ink (see inkContrast), sampled every
// second pixel each way: the margins of a scan cut to its document, or
// a blank page, hold none, and Tesseract reading one thresholds its faint
// noise into thousands of specks, 1 to 7 seconds a page for nothing (on
// the factory's scans). A line of 12-point print on a 150 dpi page is
// about 0.1 % ink. It decides whether the rest of a page around its
// documents is read; a page read whole is read unless it is blank.
func inked(img image.Image) bool {
	hist, n := lumaHistogram(img, 2)
	median, seen := 0, 0
	for v, c := range hist {
		if seen += c; 2*seen >= n {
			median = v
			break
		}
	}
	dark := 0
	for v := 0; v <= median-inkContrast; v++ {
		dark += hist[v]
	}
	return float64(dark) >= inkShare*float64(n)
}

// A page read whole is blank when less than pageInkShare of it is darker
// than its paper (the 90th percentile of its luma) by pageInkContrast of
// the paper's level, and by pageInkLevels at least. The contrast is
// relative so that a dark photo's print still counts (paper at 60, ink
// at 10), and the paper is a bright level, not the median, so that a card
// photographed on a dark table is never blank. Print as faint as luma 190
// on paper at 240 is ink; a scanner's grain (a few levels) is not.
const (
	pageInkContrast = 0.2
	pageInkLevels   = 16
	pageInkShare    = 0.0002
)

// blank says whether a page read whole holds no print (see
// pageInkContrast): Tesseract reading a blank scan thresholds its grain
// into specks and reads them as text, a minute or more a reading on an A4
// page at 300 dpi (three readings, with its orientation in doubt, ran
// past PIPELINE_TIMEOUT).
func blank(img image.Image) bool {
	hist, n := lumaHistogram(img, 2)
	if n == 0 {
		return true
	}
	paper, seen := 0, 0
	for v, c := range hist {
		if seen += c; 10*seen >= 9*n {
			paper = v
			break
		}
	}
	limit := paper - max(pageInkLevels, int(pageInkContrast*float64(paper)))
	dark := 0
	for v := 0; v <= limit; v++ {
		dark += hist[v]
	}
	return float64(dark) < pageInkShare*float64(n)
}

// lumaHistogram counts the luma of every step-th pixel of img each way,
// and returns how many were counted. A decoded page is read where its
// pixels lie (a JPEG's luma plane, a grey scan, RGBA); other images
// through their colour model.
func lumaHistogram(img image.Image, step int) (hist [256]int, n int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			hist[lumaAt(img, x, y)]++
			n++
		}
	}
	return hist, n
}

// lumaAt is the luma (BT.601) of img's pixel (x, y).
func lumaAt(img image.Image, x, y int) uint8 {
	switch m := img.(type) {
	case *image.YCbCr:
		return m.Y[m.YOffset(x, y)]
	case *image.Gray:
		return m.Pix[m.PixOffset(x, y)]
	case *image.RGBA:
		p := m.Pix[m.PixOffset(x, y):]
		return uint8((299*int(p[0]) + 587*int(p[1]) + 114*int(p[2])) / 1000)
	default:
		return color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y
	}
}
