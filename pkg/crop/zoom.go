package crop

import (
	"image"
)

// zoomWindow returns the part of the page, in page pixels, that holds
// every pixel the network takes for document interior (above Threshold),
// with a margin of ZoomMargin of its longer side and 2 network pixels,
// when that part is small enough that a second look at it, letterboxed on
// its own, sees it at least ZoomMin times larger, and at least minZoomSide
// page pixels on each side.
func zoomWindow(interior []float32, size int, lb letterboxed, page image.Rectangle, o NeuralOptions) (image.Rectangle, bool) {
	if o.ZoomMin <= 0 {
		return image.Rectangle{}, false
	}
	x0, y0, x1, y1 := lb.w, lb.h, -1, -1
	thr := float32(o.Threshold)
	for y := range lb.h {
		row := interior[y*size : y*size+lb.w]
		for x, v := range row {
			if v > thr {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return image.Rectangle{}, false
	}
	bw, bh := float64(x1-x0+1), float64(y1-y0+1)
	m := o.ZoomMargin*max(bw, bh) + 2
	fx0, fy0 := max(0, float64(x0)-m), max(0, float64(y0)-m)
	fx1, fy1 := min(float64(lb.w), float64(x1+1)+m), min(float64(lb.h), float64(y1+1)+m)
	if float64(size)/max(fx1-fx0, fy1-fy0) < o.ZoomMin {
		return image.Rectangle{}, false
	}
	sx, sy := float64(page.Dx())/float64(lb.w), float64(page.Dy())/float64(lb.h)
	r := image.Rect(page.Min.X+int(fx0*sx), page.Min.Y+int(fy0*sy), page.Min.X+int(fx1*sx+0.5), page.Min.Y+int(fy1*sy+0.5)).Intersect(page)
	if r.Dx() < minZoomSide || r.Dy() < minZoomSide {
		return image.Rectangle{}, false // a small page's speck: nothing to look at closer
	}
	return r, true
}

// minZoomSide is the smallest part of a page, in page pixels, worth a
// second look (the cropper looks at no page smaller).
const minZoomSide = 16
