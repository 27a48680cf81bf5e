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

// Channel layouts (header byte 12). For ycbcr, byte 13 holds the
// image.YCbCrSubsampleRatio and the pixels are the Y plane, then Cb, then
// Cr, each with rows one after another.
const (
	gray  = 1
	ycbcr = 3
	rgba  = 4
)

// Encode stores img. Gray images keep one channel, and YCbCr images (a
// decoded JPEG) their three planes as they are: a 100-megapixel photograph
// at 4:2:0 takes 150 MB where RGBA would take 400. Everything else is
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
	// planes are the pixels, read one after another (one plane, or Y, Cb
	// and Cr).
	planes [][]byte
	size   int64
	off    int64
}

// NewReader is the encoding of img as a reader. The pixels of a
// *image.RGBA or *image.Gray whose rows lie one after another are read in
// place (the image must not change while the reader is used); any other
// image is first converted or compacted, as Encode does.
func NewReader(img image.Image) *Reader {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	r := &Reader{}
	switch m := img.(type) {
	case *image.Gray:
		r.header[12], r.planes = gray, [][]byte{contiguous(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 1)}
	case *image.RGBA:
		r.header[12], r.planes = rgba, [][]byte{contiguous(m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 4)}
	case *image.YCbCr:
		if planes, ok := ycbcrPlanes(m); ok {
			r.header[12], r.header[13], r.planes = ycbcr, byte(m.SubsampleRatio), planes
			break
		}
		r.header[12], r.planes = rgba, [][]byte{toRGBA(img)}
	default:
		r.header[12], r.planes = rgba, [][]byte{toRGBA(img)}
	}
	for _, p := range r.planes {
		r.size += int64(len(p))
	}
	copy(r.header[:], magic[:])
	binary.LittleEndian.PutUint32(r.header[4:], uint32(w))
	binary.LittleEndian.PutUint32(r.header[8:], uint32(h))
	return r
}

// toRGBA is img's pixels converted to RGBA, rows one after another.
func toRGBA(img image.Image) []byte {
	b := img.Bounds()
	conv := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(conv, conv.Bounds(), img, b.Min, draw.Src)
	return conv.Pix
}

// ycbcrPlanes is m's Y, Cb and Cr planes where each lies with its rows one
// after another from m's top-left sample, as a decoded JPEG does; false
// for a sub-image whose rows are apart or whose chroma samples straddle
// its edge (those are stored as RGBA).
func ycbcrPlanes(m *image.YCbCr) ([][]byte, bool) {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	cw, chh := chromaSize(m.SubsampleRatio, w, h)
	if !validRatio(m.SubsampleRatio) || b.Min != (image.Point{}) || m.YStride != w || m.CStride != cw ||
		len(m.Y) < w*h || len(m.Cb) < cw*chh || len(m.Cr) < cw*chh {
		return nil, false
	}
	return [][]byte{m.Y[:w*h], m.Cb[:cw*chh], m.Cr[:cw*chh]}, true
}

// validRatio reports whether r is one of image's subsample ratios.
func validRatio(r image.YCbCrSubsampleRatio) bool {
	return r >= image.YCbCrSubsampleRatio444 && r <= image.YCbCrSubsampleRatio410
}

// chromaSize is the chroma planes' width and height for a w x h image
// from the origin at ratio r (image.NewYCbCr's arithmetic).
func chromaSize(r image.YCbCrSubsampleRatio, w, h int) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		return (w + 3) / 4, h
	case image.YCbCrSubsampleRatio410:
		return (w + 3) / 4, (h + 1) / 2
	}
	return w, h
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
func (r *Reader) Size() int64 { return headerLen + r.size }

// ReadAt implements io.ReaderAt.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("rawimg: negative offset")
	}
	n := 0
	if off < headerLen {
		n = copy(p, r.header[off:])
	}
	rest := off + int64(n) - headerLen
	for _, plane := range r.planes {
		if n == len(p) {
			break
		}
		if rest < int64(len(plane)) {
			n += copy(p[n:], plane[rest:])
			rest = 0
			continue
		}
		rest -= int64(len(plane))
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

// Decode returns an *image.Gray, *image.YCbCr or *image.RGBA that shares
// data's memory.
func Decode(data []byte) (image.Image, error) {
	if len(data) < headerLen || [4]byte(data[:4]) != magic {
		return nil, ErrFormat
	}
	w := int(binary.LittleEndian.Uint32(data[4:]))
	h := int(binary.LittleEndian.Uint32(data[8:]))
	ch := int(data[12])
	if w <= 0 || h <= 0 || (ch != gray && ch != rgba && ch != ycbcr) {
		return nil, fmt.Errorf("%w: header %dx%d layout %d", ErrFormat, w, h, ch)
	}
	pix := data[headerLen:]
	if uint64(w)*uint64(h) > uint64(len(pix)) {
		return nil, fmt.Errorf("%w: header %dx%d is larger than its %d bytes", ErrFormat, w, h, len(data))
	}
	rect := image.Rect(0, 0, w, h)
	if ch == ycbcr {
		ratio := image.YCbCrSubsampleRatio(data[13])
		cw, chh := chromaSize(ratio, w, h)
		if !validRatio(ratio) || len(pix) != w*h+2*cw*chh {
			return nil, fmt.Errorf("%w: header %dx%d YCbCr %v does not match %d bytes", ErrFormat, w, h, ratio, len(data))
		}
		c := w * h
		return &image.YCbCr{Y: pix[:c:c], Cb: pix[c : c+cw*chh : c+cw*chh], Cr: pix[c+cw*chh:],
			YStride: w, CStride: cw, SubsampleRatio: ratio, Rect: rect}, nil
	}
	if len(pix) != w*h*ch {
		return nil, fmt.Errorf("%w: header %dx%dx%d does not match %d bytes", ErrFormat, w, h, ch, len(data))
	}
	if ch == gray {
		return &image.Gray{Pix: pix, Stride: w, Rect: rect}, nil
	}
	return &image.RGBA{Pix: pix, Stride: 4 * w, Rect: rect}, nil
}
