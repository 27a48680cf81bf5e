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
	"io"
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
	r := NewReader(img)
	out := make([]byte, r.Size())
	_, _ = r.ReadAt(out, 0)
	return out
}

// Reader reads img's encoding (NewReader): the header, then the pixels
// where they already lie, so a large crop is stored without a copy. It
// also reads at offsets and seeks, as an object store client wants to
// upload parts side by side and to retry.
type Reader struct {
	header [headerLen]byte
	pix    []byte
	off    int64
}

// NewReader is the encoding of img as a reader. The pixels of a
// *image.RGBA or *image.Gray whose rows lie one after another are read in
// place (the image must not change while the reader is used); any other
// image is first converted or compacted, as Encode does.
func NewReader(img image.Image) *Reader {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var ch byte
	var pix []byte
	switch m := img.(type) {
	case *image.Gray:
		ch, pix = gray, contiguous(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 1)
	case *image.RGBA:
		ch, pix = rgba, contiguous(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 4)
	default:
		conv := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(conv, conv.Bounds(), img, b.Min, draw.Src)
		ch, pix = rgba, conv.Pix
	}
	r := &Reader{pix: pix}
	copy(r.header[:], magic[:])
	binary.LittleEndian.PutUint32(r.header[4:], uint32(w))
	binary.LittleEndian.PutUint32(r.header[8:], uint32(h))
	r.header[12] = ch
	return r
}

// contiguous is the w x h pixels of src (rows stride bytes apart) as one
// run of bytes: src itself when its rows follow each other, else a copy.
func contiguous(src []byte, stride, w, h, bpp int) []byte {
	row := w * bpp
	if stride == row {
		return src[:row*h]
	}
	out := make([]byte, row*h)
	copyRows(out, src, stride, w, h, bpp)
	return out
}

// Size is the length of the encoding.
func (r *Reader) Size() int64 { return headerLen + int64(len(r.pix)) }

// ReadAt implements io.ReaderAt.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("rawimg: negative offset")
	}
	n := 0
	if off < headerLen {
		n = copy(p, r.header[off:])
	}
	if rest := off + int64(n) - headerLen; n < len(p) && rest < int64(len(r.pix)) {
		n += copy(p[n:], r.pix[rest:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	if r.off >= r.Size() {
		return 0, io.EOF
	}
	n, err := r.ReadAt(p, r.off)
	r.off += int64(n)
	if err == io.EOF && n > 0 {
		err = nil
	}
	return n, err
}

// Seek implements io.Seeker.
func (r *Reader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.Size()
	default:
		return 0, errors.New("rawimg: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("rawimg: negative position")
	}
	r.off = offset
	return offset, nil
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
