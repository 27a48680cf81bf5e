package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// matView wraps img's pixels (RGBA order) as a 4-channel Mat without
// copying. The Mat must be closed; img must outlive it.
func matView(img *image.RGBA) (gocv.Mat, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if img.Stride != 4*w || len(img.Pix) < 4*w*h {
		return gocv.Mat{}, fmt.Errorf("synth: image is not contiguous")
	}
	return gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC4, img.Pix[:4*w*h])
}

// matToRGBA copies a 4-channel Mat into a new image.
func matToRGBA(m gocv.Mat) (*image.RGBA, error) {
	if m.Channels() != 4 {
		return nil, fmt.Errorf("synth: mat has %d channels, want 4", m.Channels())
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("synth: mat data: %w", err)
	}
	img := image.NewRGBA(image.Rect(0, 0, m.Cols(), m.Rows()))
	copy(img.Pix, b)
	return img, nil
}

// warp maps src through the homography hm (src continuous pixel
// coordinates to scene coordinates) into the scene rectangle dst.
func warp(src *image.RGBA, hm [9]float64, dst image.Rectangle) (*image.RGBA, error) {
	sm, err := matView(src)
	if err != nil {
		return nil, err
	}
	defer sm.Close()
	// Pixel centres: shift into and out of the continuous frame, and
	// move the origin to dst.Min.
	pre := [9]float64{1, 0, 0.5, 0, 1, 0.5, 0, 0, 1}
	post := [9]float64{1, 0, -0.5 - float64(dst.Min.X), 0, 1, -0.5 - float64(dst.Min.Y), 0, 0, 1}
	m := mul3(post, mul3(hm, pre))
	hmat := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hmat.Close()
	for i := 0; i < 9; i++ {
		hmat.SetDoubleAt(i/3, i%3, m[i])
	}
	out := gocv.NewMat()
	defer out.Close()
	flags := gocv.InterpolationLinear
	gocv.WarpPerspectiveWithParams(sm, &out, hmat, image.Pt(dst.Dx(), dst.Dy()), flags, gocv.BorderConstant, color.RGBA{})
	return matToRGBA(out)
}

// gaussianBlur blurs img in place.
func gaussianBlur(img *image.RGBA, sigma float64) error {
	if sigma < 0.3 {
		return nil
	}
	m, err := matView(img)
	if err != nil {
		return err
	}
	defer m.Close()
	k := int(math.Ceil(sigma*3))*2 + 1
	gocv.GaussianBlur(m, &m, image.Pt(k, k), sigma, sigma, gocv.BorderReflect101)
	return nil
}

// motionBlur smears img in place along angle (radians) over n pixels.
func motionBlur(img *image.RGBA, n int, angle float64) error {
	if n < 2 {
		return nil
	}
	m, err := matView(img)
	if err != nil {
		return err
	}
	defer m.Close()
	size := n | 1
	k := gocv.NewMatWithSize(size, size, gocv.MatTypeCV32F)
	defer k.Close()
	c := float64(size / 2)
	cnt := 0
	for i := 0; i < size*4; i++ {
		t := float64(i)/float64(size*4-1)*float64(size-1) - c
		x, y := int(math.Round(c+t*math.Cos(angle))), int(math.Round(c+t*math.Sin(angle)))
		if k.GetFloatAt(y, x) == 0 {
			k.SetFloatAt(y, x, 1)
			cnt++
		}
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			k.SetFloatAt(y, x, k.GetFloatAt(y, x)/float32(cnt))
		}
	}
	gocv.Filter2D(m, &m, -1, k, image.Pt(-1, -1), 0, gocv.BorderReflect101)
	return nil
}

// resize returns img scaled to w x h.
func resize(img *image.RGBA, w, h int, interp gocv.InterpolationFlags) (*image.RGBA, error) {
	m, err := matView(img)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	out := gocv.NewMat()
	defer out.Close()
	gocv.Resize(m, &out, image.Pt(w, h), 0, 0, interp)
	return matToRGBA(out)
}

// EncodeJPEG encodes img (alpha ignored) at quality q.
func EncodeJPEG(img *image.RGBA, q int) ([]byte, error) {
	m, err := matView(img)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	bgr := gocv.NewMat()
	defer bgr.Close()
	gocv.CvtColor(m, &bgr, gocv.ColorRGBAToBGR)
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, bgr, []int{gocv.IMWriteJpegQuality, q})
	if err != nil {
		return nil, fmt.Errorf("synth: jpeg encode: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}

// EncodePNG encodes img as PNG.
func EncodePNG(img *image.RGBA) ([]byte, error) {
	m, err := matView(img)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	bgr := gocv.NewMat()
	defer bgr.Close()
	gocv.CvtColor(m, &bgr, gocv.ColorRGBAToBGR)
	buf, err := gocv.IMEncode(gocv.PNGFileExt, bgr)
	if err != nil {
		return nil, fmt.Errorf("synth: png encode: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}

// DecodeImage decodes JPEG/PNG/WebP bytes into RGBA.
func DecodeImage(b []byte) (*image.RGBA, error) {
	m, err := gocv.IMDecode(b, gocv.IMReadColor)
	if err != nil {
		return nil, fmt.Errorf("synth: decode: %w", err)
	}
	defer m.Close()
	if m.Empty() {
		return nil, fmt.Errorf("synth: decode: empty image")
	}
	rgba := gocv.NewMat()
	defer rgba.Close()
	gocv.CvtColor(m, &rgba, gocv.ColorBGRToRGBA)
	return matToRGBA(rgba)
}

// loadImageFile reads an image file, scaled so its longer side is at most maxSide.
func loadImageFile(path string, maxSide int) (*image.RGBA, error) {
	m := gocv.IMRead(path, gocv.IMReadColor)
	defer m.Close()
	if m.Empty() {
		return nil, fmt.Errorf("synth: cannot read %s", path)
	}
	w, h := m.Cols(), m.Rows()
	if s := float64(maxSide) / math.Max(float64(w), float64(h)); s < 1 {
		gocv.Resize(m, &m, image.Pt(int(float64(w)*s), int(float64(h)*s)), 0, 0, gocv.InterpolationArea)
	}
	rgba := gocv.NewMat()
	defer rgba.Close()
	gocv.CvtColor(m, &rgba, gocv.ColorBGRToRGBA)
	return matToRGBA(rgba)
}
