package decode

import (
	"encoding/binary"
	"image"
	"image/draw"
)

// exifOrientation returns the EXIF Orientation tag (1..8) of a JPEG's APP1
// segment or a TIFF file's first IFD; 1 when absent or unreadable.
func exifOrientation(data []byte, f Format) int {
	var tiffData []byte
	if f == TIFF {
		tiffData = data
	} else {
		tiffData = jpegExif(data)
	}
	if o := tiffOrientation(tiffData); o >= 1 && o <= 8 {
		return o
	}
	return 1
}

// jpegExif finds the TIFF structure inside a JPEG's Exif APP1 segment,
// walking the markers up to the start of scan.
func jpegExif(data []byte) []byte {
	pos := 2
	for pos+4 <= len(data) {
		if data[pos] != 0xFF {
			return nil
		}
		marker := data[pos+1]
		if marker == 0xFF { // fill byte
			pos++
			continue
		}
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			return nil
		}
		n := int(binary.BigEndian.Uint16(data[pos+2 : pos+4]))
		if n < 2 || pos+2+n > len(data) {
			return nil
		}
		seg := data[pos+4 : pos+2+n]
		if marker == 0xE1 && len(seg) > 6 && string(seg[:6]) == "Exif\x00\x00" {
			return seg[6:]
		}
		pos += 2 + n
	}
	return nil
}

// tiffOrientation reads tag 0x0112 from the first IFD of a TIFF structure.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 0
	}
	n := int(bo.Uint16(t[off : off+2]))
	for i := 0; i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:e+2]) == 0x0112 && bo.Uint16(t[e+2:e+4]) == 3 {
			return int(bo.Uint16(t[e+8 : e+10]))
		}
	}
	return 0
}

// applyOrientation turns an image stored with EXIF orientation o into the
// image a viewer shows. 1 (or anything unknown) returns img unchanged.
func applyOrientation(img image.Image, o int) image.Image {
	if o <= 1 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	// src(x, y) for destination (x, y), per orientation.
	var src func(x, y int) (int, int)
	dw, dh := w, h
	switch o {
	case 2: // mirrored horizontally
		src = func(x, y int) (int, int) { return w - 1 - x, y }
	case 3: // rotated 180
		src = func(x, y int) (int, int) { return w - 1 - x, h - 1 - y }
	case 4: // mirrored vertically
		src = func(x, y int) (int, int) { return x, h - 1 - y }
	case 5: // transposed
		dw, dh = h, w
		src = func(x, y int) (int, int) { return y, x }
	case 6: // needs a 90° clockwise turn
		dw, dh = h, w
		src = func(x, y int) (int, int) { return y, h - 1 - x }
	case 7: // transversed
		dw, dh = h, w
		src = func(x, y int) (int, int) { return w - 1 - y, h - 1 - x }
	case 8: // needs a 90° counter-clockwise turn
		dw, dh = h, w
		src = func(x, y int) (int, int) { return w - 1 - y, x }
	}
	if g, ok := img.(*image.Gray); ok && b.Min == (image.Point{}) {
		out := image.NewGray(image.Rect(0, 0, dw, dh))
		for y := 0; y < dh; y++ {
			row := out.Pix[y*out.Stride : y*out.Stride+dw]
			for x := range row {
				sx, sy := src(x, y)
				row[x] = g.Pix[(sy)*g.Stride+sx]
			}
		}
		return out
	}
	rgba, ok := img.(*image.RGBA)
	if !ok || b.Min != (image.Point{}) {
		rgba = image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		row := out.Pix[y*out.Stride : y*out.Stride+4*dw]
		for x := 0; x < dw; x++ {
			sx, sy := src(x, y)
			copy(row[4*x:4*x+4], rgba.Pix[sy*rgba.Stride+4*sx:])
		}
	}
	return out
}
