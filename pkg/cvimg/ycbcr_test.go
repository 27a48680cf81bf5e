package cvimg

import (
	"image"
	"testing"

	"gocv.io/x/gocv"
)

// smoothYCbCr is a w x h YCbCr image at ratio r with a detailed luma and
// chroma that changes slowly, as a photograph's does, all within the
// colours RGB can hold (so that no conversion clips).
func smoothYCbCr(w, h int, r image.YCbCrSubsampleRatio) *image.YCbCr {
	m := image.NewYCbCr(image.Rect(0, 0, w, h), r)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Y[m.YOffset(x, y)] = uint8(60 + (x*7+y*3)%90)
			m.Cb[m.COffset(x, y)] = uint8(100 + x*56/w)
			m.Cr[m.COffset(x, y)] = uint8(156 - y*56/h)
		}
	}
	return m
}

// wholeYCbCr is the conversion fromYCbCr made before it worked in bands:
// the chroma planes upsampled whole to the page's size, then merged.
func wholeYCbCr(t *testing.T, im *image.YCbCr) gocv.Mat {
	t.Helper()
	y, cb, cr, err := planes(im)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	defer cb.Close()
	defer cr.Close()
	size := image.Pt(y.Cols(), y.Rows())
	up := make([]gocv.Mat, 2)
	for i, c := range []gocv.Mat{cr, cb} {
		up[i] = gocv.NewMat()
		defer up[i].Close()
		gocv.Resize(c, &up[i], size, 0, 0, gocv.InterpolationLinear)
	}
	merged := gocv.NewMat()
	defer merged.Close()
	gocv.Merge([]gocv.Mat{y, up[0], up[1]}, &merged)
	out := gocv.NewMat()
	gocv.CvtColor(merged, &out, gocv.ColorYCrCbToBGR)
	return out
}

// TestYCbCrInBands: a page converted band by band is the page converted
// whole, to the byte, at every subsample ratio, with bands' edges inside
// it (700 rows); an odd size (whose chroma the whole conversion stretched
// by a fraction of a pixel, where the bands keep each chroma sample on the
// luma samples it covers) stays within two levels of it.
func TestYCbCrInBands(t *testing.T) {
	ratios := []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410}
	for _, r := range ratios {
		for _, size := range []image.Point{{240, 700}, {241, 701}, {4, 2}} {
			im := smoothYCbCr(size.X, size.Y, r)
			got, err := BGR(im)
			if err != nil {
				t.Fatal(err)
			}
			want := wholeYCbCr(t, im)
			a, _ := got.DataPtrUint8()
			b, _ := want.DataPtrUint8()
			tol := 0
			if size.X%4 != 0 || size.Y%2 != 0 {
				tol = 2
			}
			worst := 0
			for i := range a {
				worst = max(worst, byteDiff(a[i], b[i]))
			}
			if len(a) != len(b) || worst > tol {
				t.Errorf("%v %v: %d bytes against %d, off by up to %d (tolerance %d)", r, size, len(a), len(b), worst, tol)
			}
			got.Close()
			want.Close()
		}
		for _, size := range []image.Point{{1, 1}, {3, 1}, {5, 3}} {
			got, err := BGR(smoothYCbCr(size.X, size.Y, r))
			if err != nil || got.Cols() != size.X || got.Rows() != size.Y {
				t.Errorf("%v %v: %dx%d, %v", r, size, got.Cols(), got.Rows(), err)
			}
			got.Close()
		}
	}
}

// TestShrinkYCbCr: a page shrunk plane by plane is the page converted and
// then shrunk, within two levels.
func TestShrinkYCbCr(t *testing.T) {
	im := smoothYCbCr(900, 620, image.YCbCrSubsampleRatio420)
	got, err := Shrink(im, 300)
	if err != nil {
		t.Fatal(err)
	}
	bgr := wholeYCbCr(t, im)
	defer bgr.Close()
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(bgr, &small, got.Bounds().Size(), 0, 0, gocv.InterpolationArea)
	want, err := ToImage(small)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != image.Rect(0, 0, 300, 207) {
		t.Fatalf("shrunk to %v", got.Bounds())
	}
	g, w := got.(*image.RGBA), want.(*image.RGBA)
	worst := 0
	for i := range g.Pix {
		worst = max(worst, byteDiff(g.Pix[i], w.Pix[i]))
	}
	if worst > 2 {
		t.Errorf("off by up to %d", worst)
	}
}

// byteDiff is |a - b|.
func byteDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestYCbCrSubImageIsItsPart: a part of a JPEG page, cut at odd offsets
// as a document's box is, converts to the colours the same part has in
// the whole page's conversion (but for its outermost samples, whose
// neighbours outside it are not seen), at every subsample ratio.
func TestYCbCrSubImageIsItsPart(t *testing.T) {
	ratios := []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410}
	for _, r := range ratios {
		page := smoothYCbCr(300, 290, r)
		// Strong chroma steps, so a misplaced sample shows.
		for i := range page.Cb {
			page.Cb[i] = uint8(100 + 40*(i%3))
			page.Cr[i] = uint8(150 - 35*(i%2))
		}
		whole, err := BGR(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []image.Rectangle{image.Rect(1, 1, 200, 280), image.Rect(3, 5, 97, 300), image.Rect(6, 2, 299, 67)} {
			at = at.Intersect(page.Bounds())
			part, err := BGR(page.SubImage(at))
			if err != nil {
				t.Fatal(err)
			}
			worst := 0
			for y := 4; y < at.Dy()-4; y++ {
				for x := 4; x < at.Dx()-4; x++ {
					for c := 0; c < 3; c++ {
						worst = max(worst, byteDiff(part.GetVecbAt(y, x)[c], whole.GetVecbAt(at.Min.Y+y, at.Min.X+x)[c]))
					}
				}
			}
			if worst > 0 {
				t.Errorf("%v, part %v: off its place in the page by up to %d", r, at, worst)
			}
			part.Close()
		}
		whole.Close()
	}
}
