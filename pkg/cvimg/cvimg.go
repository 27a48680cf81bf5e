// Package cvimg converts between Go images and OpenCV matrices (gocv.Mat)
// without per-pixel Go loops for the image types the decoders produce:
// *image.YCbCr (JPEG), *image.RGBA, *image.NRGBA and *image.Gray. Other
// image types are first drawn onto an *image.RGBA by the standard library.
package cvimg

import (
	"errors"
	"fmt"
	"image"
	"image/draw"

	"gocv.io/x/gocv"
)

// ErrEmpty is returned for images without pixels.
var ErrEmpty = errors.New("cvimg: empty image")

// BGR converts img into a new 8-bit, three-channel BGR Mat that owns its
// memory. The caller must Close it.
func BGR(img image.Image) (gocv.Mat, error) {
	b := img.Bounds()
	if b.Empty() {
		return gocv.NewMat(), ErrEmpty
	}
	switch im := img.(type) {
	case *image.Gray:
		g, err := wrap(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), im.Stride, 1)
		if err != nil {
			return gocv.NewMat(), err
		}
		defer g.Close()
		out := gocv.NewMat()
		gocv.CvtColor(g, &out, gocv.ColorGrayToBGR)
		return out, nil
	case *image.RGBA:
		return fromRGBA(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), im.Stride)
	case *image.NRGBA:
		// Alpha is dropped: transparent areas keep their colour values.
		return fromRGBA(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), im.Stride)
	case *image.YCbCr:
		return fromYCbCr(im)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	return fromRGBA(rgba.Pix, b.Dx(), b.Dy(), rgba.Stride)
}

// Gray converts img into a new 8-bit single-channel luma Mat (BT.601
// weights, as OpenCV's BGR to grey). For *image.YCbCr and *image.Gray the
// luma plane is copied as it is. The caller must Close it.
func Gray(img image.Image) (gocv.Mat, error) {
	b := img.Bounds()
	if b.Empty() {
		return gocv.NewMat(), ErrEmpty
	}
	switch im := img.(type) {
	case *image.Gray:
		return copyPlane(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), im.Stride)
	case *image.YCbCr:
		return copyPlane(im.Y[im.YOffset(b.Min.X, b.Min.Y):], b.Dx(), b.Dy(), im.YStride)
	}
	bgr, err := BGR(img)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer bgr.Close()
	out := gocv.NewMat()
	gocv.CvtColor(bgr, &out, gocv.ColorBGRToGray)
	return out, nil
}

// ToImage converts an 8-bit Mat with one, three (BGR) or four (BGRA)
// channels into an *image.Gray or *image.RGBA with Go-owned memory.
func ToImage(m gocv.Mat) (image.Image, error) {
	if m.Empty() {
		return nil, ErrEmpty
	}
	src := m
	if !m.IsContinuous() {
		src = m.Clone()
		defer src.Close()
	}
	w, h := src.Cols(), src.Rows()
	switch src.Type() {
	case gocv.MatTypeCV8UC1:
		out := image.NewGray(image.Rect(0, 0, w, h))
		data, err := src.DataPtrUint8()
		if err != nil {
			return nil, fmt.Errorf("cvimg: read grey mat: %w", err)
		}
		copy(out.Pix, data)
		return out, nil
	case gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
		code := gocv.ColorBGRToRGBA
		if src.Type() == gocv.MatTypeCV8UC4 {
			code = gocv.ColorBGRAToRGBA
		}
		out := image.NewRGBA(image.Rect(0, 0, w, h))
		dst, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC4, out.Pix)
		if err != nil {
			return nil, fmt.Errorf("cvimg: wrap output: %w", err)
		}
		defer dst.Close()
		// dst already has the right size and type, so OpenCV writes into
		// out.Pix directly instead of reallocating.
		gocv.CvtColor(src, &dst, code)
		return out, nil
	}
	return nil, fmt.Errorf("cvimg: unsupported mat type %v", src.Type())
}

// wrap makes a Mat header over Go memory with the given row stride. The
// returned Mat borrows pix: it must be closed before pix is modified.
func wrap(pix []byte, w, h, stride, ch int) (gocv.Mat, error) {
	typ := gocv.MatTypeCV8UC1
	switch ch {
	case 3:
		typ = gocv.MatTypeCV8UC3
	case 4:
		typ = gocv.MatTypeCV8UC4
	}
	if stride == w*ch {
		return gocv.NewMatFromBytes(h, w, typ, pix[:w*h*ch])
	}
	if stride%ch != 0 {
		return gocv.NewMat(), fmt.Errorf("cvimg: stride %d not a multiple of %d channels", stride, ch)
	}
	// Cover whole rows (the last one only up to the image width), then
	// take the region of interest.
	n := stride*(h-1) + w*ch
	full, err := gocv.NewMatFromBytes(h, stride/ch, typ, padTo(pix[:n], stride*h))
	if err != nil {
		return gocv.NewMat(), fmt.Errorf("cvimg: wrap pixels: %w", err)
	}
	defer full.Close()
	// The region shares full's (Go-owned) pixels and stays valid after
	// full is closed, as long as pix is alive.
	return full.Region(image.Rect(0, 0, w, h)), nil
}

// padTo returns b extended to n bytes, sharing memory when capacity allows.
func padTo(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	out := make([]byte, n)
	copy(out, b)
	return out
}

func copyPlane(pix []byte, w, h, stride int) (gocv.Mat, error) {
	m, err := wrap(pix, w, h, stride, 1)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer m.Close()
	return m.Clone(), nil
}

func fromRGBA(pix []byte, w, h, stride int) (gocv.Mat, error) {
	m, err := wrap(pix, w, h, stride, 4)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer m.Close()
	out := gocv.NewMat()
	gocv.CvtColor(m, &out, gocv.ColorRGBAToBGR)
	return out, nil
}

// fromYCbCr converts JFIF (full-range) YCbCr: the chroma planes are
// upsampled by OpenCV and merged as YCrCb, which OpenCV converts with the
// JPEG coefficients. It works in bands of ycbcrBand rows written into the
// result, so a large page costs its BGR Mat and little more (converted
// whole, its upsampled chroma and merged planes took three times as much).
func fromYCbCr(im *image.YCbCr) (gocv.Mat, error) {
	b := im.Bounds()
	w, h := b.Dx(), b.Dy()
	y, cb, cr, err := planes(im)
	if err != nil {
		return gocv.NewMat(), err
	}
	defer y.Close()
	defer cb.Close()
	defer cr.Close()
	out := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	s := siting(im.SubsampleRatio, b.Min)
	for y0 := 0; y0 < h; y0 += ycbcrBand {
		y1 := min(h, y0+ycbcrBand)
		if err := convertBand(&out, y, cb, cr, y0, y1, s); err != nil {
			out.Close()
			return gocv.NewMat(), err
		}
	}
	return out, nil
}

// chromaSiting says where the chroma samples lie: each covers fx luma
// samples across and fy down, and the image's first luma sample is the
// (ox, oy)th of those its first chroma sample covers (a sub-image may
// start inside a chroma sample: a crop cut from a JPEG page).
type chromaSiting struct{ fx, fy, ox, oy int }

// siting is the chroma siting of a YCbCr image at ratio r whose bounds
// start at min.
func siting(r image.YCbCrSubsampleRatio, min image.Point) chromaSiting {
	fx, fy := 1, 1
	switch r {
	case image.YCbCrSubsampleRatio422:
		fx = 2
	case image.YCbCrSubsampleRatio420:
		fx, fy = 2, 2
	case image.YCbCrSubsampleRatio440:
		fy = 2
	case image.YCbCrSubsampleRatio411:
		fx = 4
	case image.YCbCrSubsampleRatio410:
		fx, fy = 4, 2
	}
	return chromaSiting{fx: fx, fy: fy, ox: ((min.X % fx) + fx) % fx, oy: ((min.Y % fy) + fy) % fy}
}

// ycbcrBand is how many rows fromYCbCr converts at a time.
const ycbcrBand = 256

// convertBand converts rows y0 to y1 of a YCbCr image (planes y, cb, cr,
// chroma sited as s says) into the same rows of out. The chroma rows the
// band needs, with two more on each side so that the interpolation at the
// band's edges is the image's, are upsampled by (s.fx, s.fy) and the
// band's samples taken from them where its luma samples lie, so that a
// sub-image converts as the same part of its whole image does.
func convertBand(out *gocv.Mat, y, cb, cr gocv.Mat, y0, y1 int, s chromaSiting) error {
	w := y.Cols()
	c0 := max(0, (y0+s.oy)/s.fy-2)
	c1 := min(cb.Rows(), (y1+s.oy+s.fy-1)/s.fy+2)
	top, bottom := y0+s.oy-c0*s.fy, y1+s.oy-c0*s.fy
	chroma := make([]gocv.Mat, 2)
	for i, p := range []gocv.Mat{cr, cb} {
		strip := p.Region(image.Rect(0, c0, p.Cols(), c1))
		if s.fx == 1 && s.fy == 1 {
			chroma[i] = strip
		} else {
			up := gocv.NewMat()
			gocv.Resize(strip, &up, image.Point{}, float64(s.fx), float64(s.fy), gocv.InterpolationLinear)
			strip.Close()
			chroma[i] = up
		}
		defer chroma[i].Close()
		if chroma[i].Cols() < s.ox+w || chroma[i].Rows() < bottom {
			return fmt.Errorf("cvimg: chroma band %dx%d short of %dx%d", chroma[i].Cols(), chroma[i].Rows(), s.ox+w, bottom)
		}
		band := chroma[i].Region(image.Rect(s.ox, top, s.ox+w, bottom))
		chroma[i].Close()
		chroma[i] = band
	}
	luma := y.Region(image.Rect(0, y0, w, y1))
	defer luma.Close()
	merged := gocv.NewMat()
	defer merged.Close()
	gocv.Merge([]gocv.Mat{luma, chroma[0], chroma[1]}, &merged)
	dst := out.Region(image.Rect(0, y0, w, y1))
	defer dst.Close()
	// dst has the band's size and type, so OpenCV writes into out.
	gocv.CvtColor(merged, &dst, gocv.ColorYCrCbToBGR)
	return nil
}

// planes wraps a YCbCr image's three planes (sharing its memory) as Mats
// of its luma's size and its chroma's.
func planes(im *image.YCbCr) (y, cb, cr gocv.Mat, err error) {
	b := im.Bounds()
	w, h := b.Dx(), b.Dy()
	if y, err = wrap(im.Y[im.YOffset(b.Min.X, b.Min.Y):], w, h, im.YStride, 1); err != nil {
		return gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), err
	}
	cw, ch := chromaSize(im.SubsampleRatio, b)
	off := im.COffset(b.Min.X, b.Min.Y)
	if cb, err = wrap(im.Cb[off:], cw, ch, im.CStride, 1); err != nil {
		y.Close()
		return gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), err
	}
	if cr, err = wrap(im.Cr[off:], cw, ch, im.CStride, 1); err != nil {
		y.Close()
		cb.Close()
		return gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), err
	}
	return y, cb, cr, nil
}

func chromaSize(r image.YCbCrSubsampleRatio, b image.Rectangle) (int, int) {
	// Same arithmetic as image.YCbCr's allocation, for the chroma samples
	// that cover b.
	s := siting(r, b.Min)
	return (b.Max.X+s.fx-1)/s.fx - b.Min.X/s.fx, (b.Max.Y+s.fy-1)/s.fy - b.Min.Y/s.fy
}

// GrayScaled returns the luma of img shrunk (never enlarged) so that its
// longer side is at most maxSide, and the factor from the returned Mat's
// pixels to img's pixels (>= 1). Only the luma plane is resampled for
// JPEG-decoded and grey images. The caller must Close the Mat.
func GrayScaled(img image.Image, maxSide int) (gocv.Mat, float64, error) {
	b := img.Bounds()
	if b.Empty() {
		return gocv.NewMat(), 1, ErrEmpty
	}
	w, h := b.Dx(), b.Dy()
	scale := 1.0
	if long := max(w, h); maxSide > 0 && long > maxSide {
		scale = float64(long) / float64(maxSide)
	}
	size := image.Pt(max(1, int(float64(w)/scale+0.5)), max(1, int(float64(h)/scale+0.5)))
	var src gocv.Mat
	var err error
	switch im := img.(type) {
	case *image.YCbCr:
		src, err = wrap(im.Y[im.YOffset(b.Min.X, b.Min.Y):], w, h, im.YStride, 1)
	case *image.Gray:
		src, err = wrap(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], w, h, im.Stride, 1)
	case *image.RGBA:
		src, err = wrap(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], w, h, im.Stride, 4)
	case *image.NRGBA:
		src, err = wrap(im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], w, h, im.Stride, 4)
	default:
		src, err = Gray(img)
	}
	if err != nil {
		return gocv.NewMat(), 1, err
	}
	defer src.Close()
	small := src
	if scale > 1 {
		small = gocv.NewMat()
		defer small.Close()
		gocv.Resize(src, &small, size, 0, 0, gocv.InterpolationArea)
	}
	out := gocv.NewMat()
	if small.Channels() == 4 {
		gocv.CvtColor(small, &out, gocv.ColorRGBAToGray)
	} else {
		small.CopyTo(&out)
	}
	return out, float64(w) / float64(size.X), nil
}
