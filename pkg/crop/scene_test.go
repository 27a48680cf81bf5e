package crop

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// texture kinds for drawn backgrounds.
const (
	texWood = iota
	texFabric
	texPlainDark
	texPlainLight
)

// background draws a w x h textured backdrop.
func background(w, h, kind int, rng *rand.Rand) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var r, g, b float64
			n := rng.Float64()*24 - 12
			switch kind {
			case texWood:
				v := 0.5 + 0.5*math.Sin(float64(x)*0.05+4*math.Sin(float64(y)*0.01)+float64(y)*0.002)
				r, g, b = 110+50*v+n, 70+35*v+n, 40+20*v+n
			case texFabric:
				v := 0.5 + 0.25*math.Sin(float64(x)*0.9) + 0.25*math.Sin(float64(y)*0.9)
				r, g, b = 60+70*v+n, 70+60*v+n, 90+70*v+n
			case texPlainDark:
				r, g, b = 45+n/3, 50+n/3, 55+n/3
			default:
				r, g, b = 232+n/3, 232+n/3, 228+n/3
			}
			img.SetRGBA(x, y, color.RGBA{clamp8(r), clamp8(g), clamp8(b), 255})
		}
	}
	return img
}

// document draws a w x h paper document: tinted paper, a header band,
// lines of "text" and a photo box.
func document(w, h int, paper color.RGBA, rng *rand.Rand) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), paper)
	fill(img, image.Rect(w/20, h/20, w-w/20, h/20+h/10), color.RGBA{150, 60, 60, 255})
	fill(img, image.Rect(w/20, h/4, w/20+w/4, h/4+h/3), color.RGBA{120, 120, 130, 255})
	for y := h / 4; y < h-h/10; y += max(6, h/22) {
		x := w/3 + rng.IntN(max(1, w/20))
		for x < w-w/15 {
			word := max(4, w/40+rng.IntN(max(1, w/25)))
			fill(img, image.Rect(x, y, min(x+word, w-w/15), y+max(2, h/60)), color.RGBA{30, 30, 40, 255})
			x += word + max(3, w/90)
		}
	}
	return img
}

// place warps doc onto page so that its corners land on q (TL, TR, BL, BR).
func place(t testing.TB, page, doc *image.RGBA, q geom.Quad) {
	t.Helper()
	pm, err := cvimg.BGR(page)
	if err != nil {
		t.Fatal(err)
	}
	defer pm.Close()
	dm, err := cvimg.BGR(doc)
	if err != nil {
		t.Fatal(err)
	}
	defer dm.Close()
	dw, dh := float32(doc.Bounds().Dx()), float32(doc.Bounds().Dy())
	from := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: dw, Y: 0}, {X: 0, Y: dh}, {X: dw, Y: dh}})
	defer from.Close()
	pts := make([]gocv.Point2f, 4)
	for i, p := range q {
		pts[i] = gocv.Point2f{X: float32(p.X), Y: float32(p.Y)}
	}
	to := gocv.NewPoint2fVectorFromPoints(pts)
	defer to.Close()
	m := gocv.GetPerspectiveTransform2f(from, to)
	defer m.Close()
	size := image.Pt(page.Bounds().Dx(), page.Bounds().Dy())
	warped := gocv.NewMat()
	defer warped.Close()
	gocv.WarpPerspective(dm, &warped, m, size)
	mask := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), int(dh), int(dw), gocv.MatTypeCV8UC1)
	defer mask.Close()
	wmask := gocv.NewMat()
	defer wmask.Close()
	gocv.WarpPerspective(mask, &wmask, m, size)
	gocv.Threshold(wmask, &wmask, 127, 255, gocv.ThresholdBinary)
	warped.CopyToWithMask(&pm, wmask)
	out, err := cvimg.ToImage(pm)
	if err != nil {
		t.Fatal(err)
	}
	copy(page.Pix, out.(*image.RGBA).Pix)
}

// rectQuad is a w x h rectangle centred at (cx, cy), turned by deg degrees
// clockwise, in TL, TR, BL, BR order of the unturned rectangle.
func rectQuad(cx, cy, w, h, deg float64) geom.Quad {
	s, c := math.Sincos(deg * math.Pi / 180)
	var q geom.Quad
	for i, d := range [4][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {-w / 2, h / 2}, {w / 2, h / 2}} {
		q[i] = geom.Point{X: cx + d[0]*c - d[1]*s, Y: cy + d[0]*s + d[1]*c}
	}
	return q
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func clamp8(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }
