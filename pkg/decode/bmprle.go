package decode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
)

// BMP compression methods of the info header's biCompression.
const (
	bmpRLE8 = 1
	bmpRLE4 = 2
)

// errNotRLE says a BMP is not run-length encoded; another decoder takes it.
var errNotRLE = errors.New("not an RLE-compressed BMP")

// decodeBMPRLE decodes a run-length encoded palette BMP (BI_RLE8 or
// BI_RLE4). x/image/bmp does not read them and OpenCV reads the files
// ImageMagick writes wrongly: ImageMagick pads each row's runs to a
// multiple of four pixels, and OpenCV carries the pixels past the row's
// end into the next row, so the page comes out sheared and stretched.
// Here, as in Windows and PIL, pixels past a row's end are dropped, and
// pixels a delta or an early end of line skips keep palette entry 0. The
// size was checked against the limits by the caller (bmpSize).
func decodeBMPRLE(data []byte) (image.Image, error) {
	if len(data) < 54 {
		return nil, errNotRLE
	}
	hdr := int(binary.LittleEndian.Uint32(data[14:18]))
	if hdr < 40 {
		return nil, errNotRLE // BITMAPCOREHEADER has no compression
	}
	compression := binary.LittleEndian.Uint32(data[30:34])
	bits := int(binary.LittleEndian.Uint16(data[28:30]))
	if !(compression == bmpRLE8 && bits == 8) && !(compression == bmpRLE4 && bits == 4) {
		return nil, errNotRLE
	}
	w := int(int32(binary.LittleEndian.Uint32(data[18:22])))
	h := int(int32(binary.LittleEndian.Uint32(data[22:26])))
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("bmp: RLE bitmap of %d x %d (it must be bottom-up)", w, h)
	}
	colours := int(binary.LittleEndian.Uint32(data[46:50]))
	if colours <= 0 || colours > 1<<bits {
		colours = 1 << bits
	}
	palStart := 14 + hdr
	if palStart+4*colours > len(data) {
		return nil, fmt.Errorf("bmp: palette of %d colours cut short", colours)
	}
	pal := make(color.Palette, 1<<bits)
	for i := range pal {
		pal[i] = color.RGBA{A: 255}
	}
	for i := 0; i < colours; i++ {
		p := data[palStart+4*i:]
		pal[i] = color.RGBA{R: p[2], G: p[1], B: p[0], A: 255}
	}
	off := int(binary.LittleEndian.Uint32(data[10:14]))
	if off < palStart || off >= len(data) {
		return nil, fmt.Errorf("bmp: pixel data offset %d out of the file", off)
	}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	if err := runLengths(img, data[off:], bits); err != nil {
		return nil, fmt.Errorf("bmp: %w", err)
	}
	return img, nil
}

// runLengths paints the RLE8 or RLE4 stream src into img, whose first row
// in the stream is the bottom one. A stream that ends without its
// end-of-bitmap mark leaves the rest of the page at palette entry 0; one
// cut inside an absolute run is corrupt.
func runLengths(img *image.Paletted, src []byte, bits int) error {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x, y := 0, 0 // y counts rows from the bottom
	put := func(v byte) {
		if x < w && y < h {
			img.Pix[(h-1-y)*img.Stride+x] = v
		}
		x++
	}
	for i := 0; i+1 < len(src) && y < h; {
		n, v := int(src[i]), src[i+1]
		i += 2
		if n > 0 { // an encoded run
			for k := 0; k < n; k++ {
				if bits == 4 {
					put(v >> (4 * (1 - k%2)) & 0x0f)
				} else {
					put(v)
				}
			}
			continue
		}
		switch v {
		case 0: // end of line
			x, y = 0, y+1
		case 1: // end of bitmap
			return nil
		case 2: // delta
			if i+1 >= len(src) {
				return nil
			}
			x, y = x+int(src[i]), y+int(src[i+1])
			i += 2
		default: // an absolute run of v pixels, padded to a 16-bit boundary
			count := int(v)
			size := count
			if bits == 4 {
				size = (count + 1) / 2
			}
			if i+size > len(src) {
				return fmt.Errorf("absolute run of %d pixels cut short", count)
			}
			for k := 0; k < count; k++ {
				if bits == 4 {
					put(src[i+k/2] >> (4 * (1 - k%2)) & 0x0f)
				} else {
					put(src[i+k])
				}
			}
			i += size + size%2
		}
	}
	return nil
}
