package mrz

import (
	"image"
	"math"
	"sort"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/ppocr"
)

// zoneSlant is the median slant of the long text lines among boxes
// (phone photos hold the document a few degrees off level); ok is false
// when the lines are level already (under one degree) or too steep to be
// a slant (over twenty).
func zoneSlant(boxes []ppocr.Box, b image.Rectangle) (float64, bool) {
	var as []float64
	for _, bx := range boxes {
		if bx.Elongation >= 8 && bx.Rect.Dx()*10 >= b.Dx()*3 {
			as = append(as, bx.Angle)
		}
	}
	if len(as) == 0 {
		return 0, false
	}
	sort.Float64s(as)
	a := as[len(as)/2]
	deg := math.Abs(a) * 180 / math.Pi
	return a, deg >= 1 && deg <= 20
}

// leveller turns an image about its centre so that lines slanted by
// angle become level (cvimg.Level), and maps points back.
type leveller struct {
	angle, cos, sin, cx, cy float64
}

func newLeveller(b image.Rectangle, angle float64) leveller {
	return leveller{angle: angle, cos: math.Cos(angle), sin: math.Sin(angle),
		cx: float64(b.Min.X+b.Max.X) / 2, cy: float64(b.Min.Y+b.Max.Y) / 2}
}

// level returns img turned level, same bounds, white where nothing of img
// lands.
func (l leveller) level(img image.Image) *image.RGBA { return cvimg.Level(img, l.angle) }

// back maps a point of the levelled image to the original one.
func (l leveller) back(x, y float64) (float64, float64) {
	dx, dy := x-l.cx, y-l.cy
	return l.cos*dx - l.sin*dy + l.cx, l.sin*dx + l.cos*dy + l.cy
}

// unlevel moves a reading made on the levelled image back to the
// original's coordinates: each line's rectangle becomes the bounding box
// of its turned corners, each line's start its turned point.
func (l leveller) unlevel(rd *Reading) {
	for i, r := range rd.Rects {
		cy := float64(r.Min.Y+r.Max.Y) / 2
		sx, _ := l.back(rd.Starts[i], cy)
		rd.Starts[i] = sx
		var out image.Rectangle
		for k, p := range [4][2]int{{r.Min.X, r.Min.Y}, {r.Max.X, r.Min.Y}, {r.Min.X, r.Max.Y}, {r.Max.X, r.Max.Y}} {
			x, y := l.back(float64(p[0]), float64(p[1]))
			pr := image.Rect(int(math.Floor(x)), int(math.Floor(y)), int(math.Ceil(x))+1, int(math.Ceil(y))+1)
			if k == 0 {
				out = pr
			} else {
				out = out.Union(pr)
			}
		}
		rd.Rects[i] = out
	}
}
