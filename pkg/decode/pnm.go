package decode

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"io"
)

// readPNM reads a binary PGM (P5) or PPM (P6) image with 8-bit samples, as
// poppler and djvulibre write them, row by row from r: the image is
// allocated once its size has been checked against the limit, and the
// file's own bytes are never held whole (a 60-megapixel page is 180 MB of
// PPM).
func readPNM(r *bufio.Reader, opts Options, page int) (image.Image, error) {
	magic := make([]byte, 2)
	if _, err := io.ReadFull(r, magic); err != nil || magic[0] != 'P' || (magic[1] != '5' && magic[1] != '6') {
		return nil, fmt.Errorf("not a binary PGM/PPM image")
	}
	var vals [3]int
	for i := range vals {
		v, err := pnmNumber(r)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	// The single white-space byte after maxval was read with it.
	w, h, maxval := vals[0], vals[1], vals[2]
	if maxval > 255 {
		return nil, fmt.Errorf("16-bit PNM not supported")
	}
	if err := opts.checkPixels(page, int64(w), int64(h)); err != nil {
		return nil, err
	}
	if magic[1] == '5' {
		g := image.NewGray(image.Rect(0, 0, w, h))
		if _, err := io.ReadFull(r, g.Pix); err != nil {
			return nil, fmt.Errorf("truncated PNM data")
		}
		return g, nil
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	row := make([]byte, 3*w)
	for y := 0; y < h; y++ {
		if _, err := io.ReadFull(r, row); err != nil {
			return nil, fmt.Errorf("truncated PNM data")
		}
		d := out.Pix[y*out.Stride : y*out.Stride+4*w]
		for i, j := 0, 0; i < len(row); i, j = i+3, j+4 {
			d[j], d[j+1], d[j+2], d[j+3] = row[i], row[i+1], row[i+2], 0xFF
		}
	}
	return out, nil
}

// maxPNMDigits bounds a header number: no page has a side of ten digits.
const maxPNMDigits = 9

// pnmNumber reads one positive decimal number of a PNM header, skipping
// the white space and comments before it, and consumes the one byte after
// it (a comment's # is left for the next number's skip).
func pnmNumber(r *bufio.Reader) (int, error) {
	bad := errors.New("bad PNM header")
	c, err := r.ReadByte()
	for err == nil && (c == '#' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
		if c == '#' {
			if _, err = r.ReadBytes('\n'); err != nil {
				return 0, bad
			}
		}
		c, err = r.ReadByte()
	}
	v, n := 0, 0
	for err == nil && c >= '0' && c <= '9' {
		if n++; n > maxPNMDigits {
			return 0, bad
		}
		v = 10*v + int(c-'0')
		c, err = r.ReadByte()
	}
	if n == 0 || v <= 0 || err != nil {
		return 0, bad
	}
	if c == '#' {
		_ = r.UnreadByte()
	}
	return v, nil
}
