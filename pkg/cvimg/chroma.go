package cvimg

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// ChromaScaled returns the Cb and Cr planes of img resampled to size. A
// decoded JPEG's own chroma planes are resampled in place (linear
// interpolation: they are about that size already, half the page's, where
// OpenCV's area filter is slow, and chroma is smooth); other images are
// shrunk, converted and split. The caller must Close both Mats.
func ChromaScaled(img image.Image, size image.Point) (cb, cr gocv.Mat, err error) {
	if im, ok := img.(*image.YCbCr); ok && !im.Bounds().Empty() {
		return ycbcrChroma(im, size)
	}
	small, err := Shrink(img, max(size.X, size.Y))
	if err != nil {
		return gocv.Mat{}, gocv.Mat{}, err
	}
	bgr, err := BGR(small)
	if err != nil {
		return gocv.Mat{}, gocv.Mat{}, err
	}
	defer bgr.Close()
	if bgr.Cols() != size.X || bgr.Rows() != size.Y {
		gocv.Resize(bgr, &bgr, size, 0, 0, gocv.InterpolationArea)
	}
	ycc := gocv.NewMat()
	defer ycc.Close()
	gocv.CvtColor(bgr, &ycc, gocv.ColorBGRToYCrCb)
	planes := gocv.Split(ycc)
	planes[0].Close()
	return planes[2], planes[1], nil
}

// ycbcrChroma resamples im's Cb and Cr planes to size.
func ycbcrChroma(im *image.YCbCr, size image.Point) (cb, cr gocv.Mat, err error) {
	b := im.Bounds()
	cw, ch := chromaSize(im.SubsampleRatio, b)
	off := im.COffset(b.Min.X, b.Min.Y)
	plane := func(pix []byte) (gocv.Mat, error) {
		m, err := wrap(pix[off:], cw, ch, im.CStride, 1)
		if err != nil {
			return gocv.Mat{}, fmt.Errorf("cvimg: chroma plane: %w", err)
		}
		defer m.Close()
		out := gocv.NewMat()
		gocv.Resize(m, &out, size, 0, 0, gocv.InterpolationLinear)
		return out, nil
	}
	if cb, err = plane(im.Cb); err != nil {
		return gocv.Mat{}, gocv.Mat{}, err
	}
	if cr, err = plane(im.Cr); err != nil {
		cb.Close()
		return gocv.Mat{}, gocv.Mat{}, err
	}
	return cb, cr, nil
}
