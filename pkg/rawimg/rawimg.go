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
	planes []plane
	size   int64
	off    int64
}

// plane is rows rows of row bytes each, stride bytes apart in pix.
type plane struct {
	pix               []byte
	stride, row, rows int
}

// size is the plane's length in the encoding.
func (p plane) size() int64 { return int64(p.row) * int64(p.rows) }

// readAt copies the plane's encoding from off into dst.
func (p plane) readAt(dst []byte, off int64) int {
	n := 0
	for n < len(dst) && off < p.size() {
		y, x := int(off/int64(p.row)), int(off%int64(p.row))
		c := copy(dst[n:], p.pix[y*p.stride+x:y*p.stride+p.row])
		n += c
		off += int64(c)
	}
	return n
}

// NewReader is the encoding of img as a reader. The pixels of a
// *image.Gray, *image.RGBA or *image.YCbCr (a decoded JPEG, whose rows are
// padded to whole blocks) are read where they lie (the image must not
// change while the reader is used); any other image is first converted,
// as Encode does.
func NewReader(img image.Image) *Reader {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	r := &Reader{}
	switch m := img.(type) {
	case *image.Gray:
		r.header[12], r.planes = gray, []plane{{m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h}}
	case *image.RGBA:
		r.header[12], r.planes = rgba, []plane{{m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, 4 * w, h}}
	case *image.YCbCr:
		if planes, ok := ycbcrPlanes(m); ok {
			r.header[12], r.header[13], r.planes = ycbcr, byte(m.SubsampleRatio), planes
			break
		}
		r.header[12], r.planes = rgba, []plane{toRGBA(img)}
	default:
		r.header[12], r.planes = rgba, []plane{toRGBA(img)}
	}
	for _, p := range r.planes {
		r.size += p.size()
	}
	copy(r.header[:], magic[:])
	binary.LittleEndian.PutUint32(r.header[4:], uint32(w))
	binary.LittleEndian.PutUint32(r.header[8:], uint32(h))
	return r
}

// toRGBA is img's pixels converted to RGBA.
func toRGBA(img image.Image) plane {
	b := img.Bounds()
	conv := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(conv, conv.Bounds(), img, b.Min, draw.Src)
	return plane{conv.Pix, conv.Stride, conv.Stride, b.Dy()}
}

// ycbcrPlanes is m's Y, Cb and Cr planes from its top-left sample; false
// for a sub-image not at the origin, whose chroma samples may straddle its
// edge (stored as RGBA instead).
func ycbcrPlanes(m *image.YCbCr) ([]plane, bool) {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	cw, chh := chromaSize(m.SubsampleRatio, w, h)
	if !validRatio(m.SubsampleRatio) || b.Min != (image.Point{}) || m.YStride < w || m.CStride < cw ||
		len(m.Y) < (h-1)*m.YStride+w || len(m.Cb) < (chh-1)*m.CStride+cw || len(m.Cr) < (chh-1)*m.CStride+cw {
		return nil, false
	}
	return []plane{{m.Y, m.YStride, w, h}, {m.Cb, m.CStride, cw, chh}, {m.Cr, m.CStride, cw, chh}}, true
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
	for _, pl := range r.planes {
		if n == len(p) {
			break
		}
		if rest < pl.size() {
			n += pl.readAt(p[n:], rest)
			rest = 0
			continue
		}
		rest -= pl.size()
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
