package cvimg

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// Resize returns img resampled to size (linear interpolation, as poppler
// draws a scan enlarged by less than four times), with its origin at
// (0, 0). A grey or RGBA image is read from its own pixels and comes back
// of its own type, so no converted copy of the page is made on the way;
// any other image comes back as an *image.RGBA.
func Resize(img image.Image, size image.Point) (image.Image, error) {
	b := img.Bounds()
	if b.Empty() || size.X <= 0 || size.Y <= 0 {
		return nil, ErrEmpty
	}
	var (
		pix    []byte
		stride int
		ch     int
		out    image.Image
		outPix []byte
	)
	switch im := img.(type) {
	case *image.Gray:
		pix, stride, ch = im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], im.Stride, 1
		o := image.NewGray(image.Rectangle{Max: size})
		out, outPix = o, o.Pix
	case *image.RGBA:
		pix, stride, ch = im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], im.Stride, 4
		o := image.NewRGBA(image.Rectangle{Max: size})
		out, outPix = o, o.Pix
	default:
		bgr, err := BGR(img)
		if err != nil {
			return nil, err
		}
		defer bgr.Close()
		m := gocv.NewMat()
		defer m.Close()
		gocv.Resize(bgr, &m, size, 0, 0, gocv.InterpolationLinear)
		return ToImage(m)
	}
	src, err := wrap(pix, b.Dx(), b.Dy(), stride, ch)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	dst, err := gocv.NewMatFromBytes(size.Y, size.X, src.Type(), outPix)
	if err != nil {
		return nil, fmt.Errorf("cvimg: wrap resized pixels: %w", err)
	}
	defer dst.Close()
	// dst has the result's size and type, so OpenCV writes into outPix.
	gocv.Resize(src, &dst, size, 0, 0, gocv.InterpolationLinear)
	return out, nil
}
