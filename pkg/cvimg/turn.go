package cvimg

import (
	"fmt"
	"image"
	"image/draw"

	"gocv.io/x/gocv"

	"docsuite/pkg/geom"
)

// quarterTurns are OpenCV's clockwise rotations for 1, 2 and 3 quarter turns.
var quarterTurns = [...]gocv.RotateFlag{gocv.Rotate90Clockwise, gocv.Rotate180Clockwise, gocv.Rotate90CounterClockwise}

// Turn applies rotation code r to img: mirror left-right when r says so,
// then r.Turns() quarter turns clockwise (the code that makes a lying
// document upright). A grey image stays grey; anything else becomes
// *image.RGBA. Code 0 returns img itself.
//
// The turned image is written a band of its rows at a time, each band's
// source cut from img, converted to RGBA when it is in another form, and
// turned on its own by OpenCV: beside img and the result Turn holds a few
// megabytes, where an RGBA copy of the whole image, OpenCV's turned Mat
// and the result had taken three times the result's size (12 bytes a
// pixel of a 100-megapixel page).
func Turn(img image.Image, r geom.Rotation) (image.Image, error) {
	return turnInBands(img, r, turnBandBytes)
}

// turnBandBytes is about how many bytes of pixels Turn holds at a time
// besides the image and its turned copy: a band of the turned image, and
// its source when that is converted first.
const turnBandBytes = 16 << 20

// turnInBands is Turn with bands of about bandBytes bytes (a row at least).
func turnInBands(img image.Image, r geom.Rotation, bandBytes int) (image.Image, error) {
	if r == 0 {
		return img, nil
	}
	b := img.Bounds()
	if b.Empty() {
		return nil, ErrEmpty
	}
	sw, sh := b.Dx(), b.Dy()
	dw, dh := sw, sh
	if r.Turns()%2 == 1 {
		dw, dh = sh, sw
	}
	var out image.Image
	var pix []byte
	var stride int
	if _, ok := img.(*image.Gray); ok {
		o := image.NewGray(image.Rect(0, 0, dw, dh))
		out, pix, stride = o, o.Pix, o.Stride
	} else {
		o := image.NewRGBA(image.Rect(0, 0, dw, dh))
		out, pix, stride = o, o.Pix, o.Stride
	}
	band := max(1, bandBytes/(4*max(dw, dh)))
	// The RGBA band an image of another form is drawn onto is one buffer,
	// used again band after band: new ones each time left garbage that a
	// large page's many bands took to hundreds of megabytes before the
	// collector ran.
	var scratch []byte
	for y0 := 0; y0 < dh; y0 += band {
		y1 := min(dh, y0+band)
		src := sourceRect(r, sw, sh, y0, y1).Add(b.Min)
		if err := turnBand(pix[y0*stride:y1*stride], stride, img, src, r, &scratch); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// turnBand writes the part src of img turned by r into dst, the rows of
// the turned image it becomes (stride bytes apart). Grey and RGBA pixels
// are turned where they lie; any other form is drawn onto an RGBA band
// first, as the standard library converts it, in *scratch (grown when
// too small).
func turnBand(dst []byte, stride int, img image.Image, src image.Rectangle, r geom.Rotation, scratch *[]byte) error {
	var pix []byte
	var srcStride, ch int
	switch im := img.(type) {
	case *image.Gray:
		pix, srcStride, ch = im.Pix[im.PixOffset(src.Min.X, src.Min.Y):], im.Stride, 1
	case *image.RGBA:
		pix, srcStride, ch = im.Pix[im.PixOffset(src.Min.X, src.Min.Y):], im.Stride, 4
	default:
		n := 4 * src.Dx() * src.Dy()
		if len(*scratch) < n {
			*scratch = make([]byte, n)
		}
		// draw.Src writes every pixel of the band: nothing of the last
		// band's shows through.
		part := &image.RGBA{Pix: (*scratch)[:n], Stride: 4 * src.Dx(), Rect: image.Rect(0, 0, src.Dx(), src.Dy())}
		draw.Draw(part, part.Bounds(), img, src.Min, draw.Src)
		pix, srcStride, ch = part.Pix, part.Stride, 4
	}
	// Flips and rotations move whole pixels: the channels are copied as
	// they are, with no colour conversion.
	m, err := wrap(pix, src.Dx(), src.Dy(), srcStride, ch)
	if err != nil {
		return err
	}
	m = turnMat(m, r)
	defer m.Close()
	turned, err := m.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("cvimg: read turned image: %w", err)
	}
	row := m.Cols() * ch
	for y := range m.Rows() {
		copy(dst[y*stride:y*stride+row], turned[y*m.Step():])
	}
	return nil
}

// turnMat mirrors and turns m by rotation code r, as Turn turns an image,
// and returns the result as a continuous Mat. m is consumed: closed, or
// returned itself when r is 0 and m is continuous. The caller must Close
// the result.
func turnMat(m gocv.Mat, r geom.Rotation) gocv.Mat {
	if r.Mirrored() {
		flipped := gocv.NewMat()
		gocv.Flip(m, &flipped, 1)
		m.Close()
		m = flipped
	}
	if k := r.Turns(); k > 0 {
		turned := gocv.NewMat()
		gocv.Rotate(m, &turned, quarterTurns[k-1])
		m.Close()
		m = turned
	}
	if !m.IsContinuous() {
		c := m.Clone()
		m.Close()
		m = c
	}
	return m
}
