package cvimg

import (
	"fmt"
	"image"
	"image/draw"

	"gocv.io/x/gocv"

	"docsuite/pkg/geom"
)

// JPEG encodes img as a baseline JPEG of the given quality (1 to 100)
// with libjpeg-turbo, the library OpenCV's encoder calls (the same bytes
// as OpenCV's imencode), several times faster than the standard library's
// on the crops the service returns. Chroma is subsampled 4:2:0, as the
// standard library does.
func JPEG(img image.Image, quality int) ([]byte, error) {
	return TurnedJPEG(img, 0, quality)
}

// jpegBandBytes is about how many bytes of pixels TurnedJPEG holds at a
// time besides the image itself: a band of the turned image, and its
// source when that is converted first.
const jpegBandBytes = 16 << 20

// TurnedJPEG is JPEG of img turned by rotation code r (as Turn turns it).
// The turned image is never built whole: it is compressed a band of rows
// at a time, each band cut from img, converted and turned on its own
// (OpenCV's flips and rotations), so a 70-megapixel page is written with
// a few megabytes beside it where a whole turned copy took 212 MB or more.
// Grey images stay grey; RGBA rows are compressed where they lie.
func TurnedJPEG(img image.Image, r geom.Rotation, quality int) ([]byte, error) {
	if quality < 1 || quality > 100 {
		return nil, fmt.Errorf("cvimg: JPEG quality %d outside 1 to 100", quality)
	}
	b := img.Bounds()
	if b.Empty() {
		return nil, fmt.Errorf("cvimg: JPEG: %w", ErrEmpty)
	}
	sw, sh := b.Dx(), b.Dy()
	dw, dh := sw, sh
	if r.Turns()%2 == 1 {
		dw, dh = sh, sw
	}
	// YCbCr bands are converted by OpenCV (BGR); other colour images are
	// compressed from RGBA rows, their own or drawn a band at a time.
	space := spaceRGBX
	switch img.(type) {
	case *image.Gray:
		space = spaceGray
	case *image.YCbCr:
		space = spaceBGR
	}
	jw, err := newJPEGWriter(dw, dh, space, quality)
	if err != nil {
		return nil, err
	}
	defer jw.close()
	band := max(16, jpegBandBytes/(4*max(dw, dh))/16*16)
	for y0 := 0; y0 < dh; y0 += band {
		src := sourceRect(r, sw, sh, y0, min(dh, y0+band)).Add(b.Min)
		if err := writeBand(jw, img, src, r); err != nil {
			return nil, err
		}
	}
	return jw.finish()
}

// sourceRect is the part of a sw x sh image that rotation code r turns
// into rows y0 to y1 of the turned image: the band's corners taken back
// through the inverse turns and mirror.
func sourceRect(r geom.Rotation, sw, sh, y0, y1 int) image.Rectangle {
	w := sw
	if r.Turns()%2 == 1 {
		w = sh
	}
	pts := [2]image.Point{{0, y0}, {w - 1, y1 - 1}}
	h := sw + sh - w
	for k := r.Turns(); k > 0; k-- {
		// Undo one quarter turn clockwise of a w-wide image.
		for i := range pts {
			pts[i] = image.Pt(pts[i].Y, w-1-pts[i].X)
		}
		w, h = h, w
	}
	if r.Mirrored() {
		for i := range pts {
			pts[i].X = w - 1 - pts[i].X
		}
	}
	a, z := pts[0], pts[1]
	return image.Rect(min(a.X, z.X), min(a.Y, z.Y), max(a.X, z.X)+1, max(a.Y, z.Y)+1)
}

// writeBand compresses the part src of img turned by r, the next rows of
// jw's image.
func writeBand(jw *jpegWriter, img image.Image, src image.Rectangle, r geom.Rotation) error {
	// Grey and RGBA rows are read where they lie: compressed as they are
	// when r is 0, else wrapped for OpenCV to turn.
	var pix []byte
	var stride, ch int
	var m gocv.Mat
	var err error
	switch im := img.(type) {
	case *image.Gray:
		pix, stride, ch = im.Pix[im.PixOffset(src.Min.X, src.Min.Y):], im.Stride, 1
	case *image.RGBA:
		pix, stride, ch = im.Pix[im.PixOffset(src.Min.X, src.Min.Y):], im.Stride, 4
	case *image.NRGBA:
		// Alpha is dropped: transparent areas keep their colour values.
		pix, stride, ch = im.Pix[im.PixOffset(src.Min.X, src.Min.Y):], im.Stride, 4
	case *image.YCbCr:
		m, err = fromYCbCr(im.SubImage(src).(*image.YCbCr))
	default:
		part := image.NewRGBA(image.Rect(0, 0, src.Dx(), src.Dy()))
		draw.Draw(part, part.Bounds(), img, src.Min, draw.Src)
		return writeBand(jw, part, part.Bounds(), r)
	}
	if pix != nil {
		if r == 0 {
			return jw.write(pix, stride, src.Dy())
		}
		m, err = wrap(pix, src.Dx(), src.Dy(), stride, ch)
	}
	if err != nil {
		return fmt.Errorf("cvimg: JPEG: %w", err)
	}
	m = turnMat(m, r)
	defer m.Close()
	turned, err := m.DataPtrUint8()
	if err != nil {
		return fmt.Errorf("cvimg: JPEG: %w", err)
	}
	return jw.write(turned, m.Step(), m.Rows())
}
