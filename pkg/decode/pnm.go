package decode

import (
	"fmt"
	"image"
	"strconv"
)

// decodePNM reads a binary PGM (P5) or PPM (P6) image with 8-bit samples,
// as poppler and djvulibre write them, checking its size against the
// limit before allocating.
func decodePNM(data []byte, opts Options, page int) (image.Image, error) {
	if len(data) < 2 || data[0] != 'P' || (data[1] != '5' && data[1] != '6') {
		return nil, fmt.Errorf("not a binary PGM/PPM image")
	}
	kind := data[1]
	pos := 2
	var vals [3]int
	for i := range vals {
		// Skip white space and comments.
		for pos < len(data) {
			if data[pos] == '#' {
				for pos < len(data) && data[pos] != '\n' {
					pos++
				}
				continue
			}
			if data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\n' || data[pos] == '\r' {
				pos++
				continue
			}
			break
		}
		start := pos
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			pos++
		}
		v, err := strconv.Atoi(string(data[start:pos]))
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("bad PNM header")
		}
		vals[i] = v
	}
	pos++ // the single white-space byte after maxval
	w, h, maxval := vals[0], vals[1], vals[2]
	if maxval > 255 {
		return nil, fmt.Errorf("16-bit PNM not supported")
	}
	if err := opts.checkPixels(page, int64(w), int64(h)); err != nil {
		return nil, err
	}
	ch := 1
	if kind == '6' {
		ch = 3
	}
	if pos > len(data) || int64(len(data)-pos) < int64(w)*int64(h)*int64(ch) {
		return nil, fmt.Errorf("truncated PNM data")
	}
	pix := data[pos:]
	if ch == 1 {
		g := image.NewGray(image.Rect(0, 0, w, h))
		copy(g.Pix, pix[:w*h])
		return g, nil
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	d := out.Pix
	for i, j := 0, 0; i < w*h*3; i, j = i+3, j+4 {
		d[j], d[j+1], d[j+2], d[j+3] = pix[i], pix[i+1], pix[i+2], 0xFF
	}
	return out, nil
}
