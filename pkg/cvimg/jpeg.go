package cvimg

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"

	"docsuite/pkg/geom"
)

// JPEG encodes img as a baseline JPEG of the given quality (1 to 100)
// with OpenCV's encoder (libjpeg-turbo on Debian), several times faster
// than the standard library's on the crops the service returns. Chroma
// is subsampled 4:2:0, as the standard library does.
func JPEG(img image.Image, quality int) ([]byte, error) {
	return TurnedJPEG(img, 0, quality)
}

// TurnedJPEG is JPEG of img turned by rotation code r (as Turn turns it):
// the image is converted once into an OpenCV matrix and turned there, so
// a large crop is not first copied whole into a turned Go image (a
// 70-megapixel page turned that way held three RGBA copies of itself).
func TurnedJPEG(img image.Image, r geom.Rotation, quality int) ([]byte, error) {
	if quality < 1 || quality > 100 {
		return nil, fmt.Errorf("cvimg: JPEG quality %d outside 1 to 100", quality)
	}
	var m gocv.Mat
	var err error
	if _, gray := img.(*image.Gray); gray {
		m, err = Gray(img)
	} else {
		m, err = BGR(img)
	}
	if err != nil {
		return nil, fmt.Errorf("cvimg: JPEG: %w", err)
	}
	defer m.Close()
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
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, quality})
	if err != nil {
		return nil, fmt.Errorf("cvimg: JPEG: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}
