package cvimg

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"
)

// JPEG encodes img as a baseline JPEG of the given quality (1 to 100)
// with OpenCV's encoder (libjpeg-turbo on Debian), several times faster
// than the standard library's on the crops the service returns. Chroma
// is subsampled 4:2:0, as the standard library does.
func JPEG(img image.Image, quality int) ([]byte, error) {
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
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, quality})
	if err != nil {
		return nil, fmt.Errorf("cvimg: JPEG: %w", err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...), nil
}
