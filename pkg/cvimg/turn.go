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
func Turn(img image.Image, r geom.Rotation) (image.Image, error) {
	if r == 0 {
		return img, nil
	}
	b := img.Bounds()
	if b.Empty() {
		return nil, ErrEmpty
	}
	var pix []byte
	var stride, ch int
	switch im := img.(type) {
	case *image.Gray:
		pix, stride, ch = im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], im.Stride, 1
	case *image.RGBA:
		pix, stride, ch = im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], im.Stride, 4
	default:
		rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
		pix, stride, ch = rgba.Pix, rgba.Stride, 4
	}
	// Flips and rotations move whole pixels: the channels are copied as
	// they are, with no colour conversion.
	src, err := wrap(pix, b.Dx(), b.Dy(), stride, ch)
	if err != nil {
		return nil, err
	}
	cur := turnMat(src, r)
	defer cur.Close()
	data, err := cur.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("cvimg: read turned image: %w", err)
	}
	rect := image.Rect(0, 0, cur.Cols(), cur.Rows())
	if ch == 1 {
		out := image.NewGray(rect)
		copy(out.Pix, data)
		return out, nil
	}
	out := image.NewRGBA(rect)
	copy(out.Pix, data)
	return out, nil
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
