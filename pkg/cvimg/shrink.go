package cvimg

import (
	"image"

	"gocv.io/x/gocv"
)

// Shrink returns img when its longer side is at most maxSide, else a copy
// shrunk (area interpolation, the aspect kept) so that its longer side is
// maxSide, as an *image.RGBA with its origin at (0, 0). Readers that need
// no more pixels than that (text lines scaled to a fixed height) take it
// instead of a page of tens of megapixels, which they would otherwise
// convert and turn whole.
func Shrink(img image.Image, maxSide int) (image.Image, error) {
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	if maxSide <= 0 || long <= maxSide {
		return img, nil
	}
	scale := float64(maxSide) / float64(long)
	size := image.Pt(max(1, int(float64(b.Dx())*scale+0.5)), max(1, int(float64(b.Dy())*scale+0.5)))
	if im, ok := img.(*image.RGBA); ok {
		// Resampled from its own pixels into the result's: no full-size
		// copy of a page that may hold hundreds of megabytes.
		src, err := wrap(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), im.Stride, 4)
		if err != nil {
			return nil, err
		}
		defer src.Close()
		out := image.NewRGBA(image.Rectangle{Max: size})
		dst, err := gocv.NewMatFromBytes(size.Y, size.X, gocv.MatTypeCV8UC4, out.Pix)
		if err != nil {
			return nil, err
		}
		defer dst.Close()
		gocv.Resize(src, &dst, size, 0, 0, gocv.InterpolationArea)
		return out, nil
	}
	if im, ok := img.(*image.YCbCr); ok {
		return shrinkYCbCr(im, size)
	}
	src, err := BGR(img)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(src, &small, size, 0, 0, gocv.InterpolationArea)
	return ToImage(small)
}

// shrinkYCbCr shrinks a JPEG's page plane by plane (area interpolation,
// the chroma planes from their own resolution) and converts only the
// small result: the page is never converted whole (a 100-megapixel page
// would take 300 MB as BGR, and more on the way).
func shrinkYCbCr(im *image.YCbCr, size image.Point) (image.Image, error) {
	y, cb, cr, err := planes(im)
	if err != nil {
		return nil, err
	}
	defer y.Close()
	defer cb.Close()
	defer cr.Close()
	small := make([]gocv.Mat, 3)
	for i, p := range []gocv.Mat{y, cr, cb} {
		small[i] = gocv.NewMat()
		defer small[i].Close()
		gocv.Resize(p, &small[i], size, 0, 0, gocv.InterpolationArea)
	}
	merged := gocv.NewMat()
	defer merged.Close()
	gocv.Merge(small, &merged)
	bgr := gocv.NewMat()
	defer bgr.Close()
	gocv.CvtColor(merged, &bgr, gocv.ColorYCrCbToBGR)
	return ToImage(bgr)
}
