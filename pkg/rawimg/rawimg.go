// Package rawimg is the lossless encoding of intermediate images (decoded
// pages, document crops) kept in the object store between stages. It is a
// 16-byte header and the pixels as they lie in memory: encoding and
// decoding cost one copy, where PNG would cost tens of milliseconds.
package rawimg

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
)

var magic = [4]byte{'R', 'I', 'M', 'G'}

const headerLen = 16

// Channel layouts.
const (
	gray = 1
	rgba = 4
)

// Encode stores img. Gray images keep one channel; everything else is
// stored as RGBA (converted when it is not already *image.RGBA).
func Encode(img image.Image) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var ch byte
	var pix func(dst []byte)
	switch m := img.(type) {
	case *image.Gray:
		ch = gray
		pix = func(dst []byte) { copyRows(dst, m.Pix, m.Stride, w, h, 1) }
	case *image.RGBA:
		ch = rgba
		pix = func(dst []byte) { copyRows(dst, m.Pix, m.Stride, w, h, 4) }
	default:
		ch = rgba
		conv := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(conv, conv.Bounds(), img, b.Min, draw.Src)
		pix = func(dst []byte) { copy(dst, conv.Pix) }
	}
	out := make([]byte, headerLen+w*h*int(ch))
	copy(out, magic[:])
	binary.LittleEndian.PutUint32(out[4:], uint32(w))
	binary.LittleEndian.PutUint32(out[8:], uint32(h))
	out[12] = ch
	pix(out[headerLen:])
	return out
}

func copyRows(dst, src []byte, stride, w, h, bpp int) {
	row := w * bpp
	if stride == row {
		copy(dst, src[:row*h])
		return
	}
	for y := 0; y < h; y++ {
		copy(dst[y*row:(y+1)*row], src[y*stride:y*stride+row])
	}
}

// ErrFormat is returned for data that is not a rawimg encoding.
var ErrFormat = errors.New("rawimg: not a raw image")

// Decode returns an *image.Gray or *image.RGBA that shares data's memory.
func Decode(data []byte) (image.Image, error) {
	if len(data) < headerLen || [4]byte(data[:4]) != magic {
		return nil, ErrFormat
	}
	w := int(binary.LittleEndian.Uint32(data[4:]))
	h := int(binary.LittleEndian.Uint32(data[8:]))
	ch := int(data[12])
	if w <= 0 || h <= 0 || (ch != gray && ch != rgba) || len(data) != headerLen+w*h*ch {
		return nil, fmt.Errorf("%w: header %dx%dx%d does not match %d bytes", ErrFormat, w, h, ch, len(data))
	}
	pix := data[headerLen:]
	if ch == gray {
		return &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}, nil
	}
	return &image.RGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}, nil
}
