package testutil

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
)

// JPEGLossless writes img as a lossless JPEG (SOF3, as medical imaging and
// some archival tools write them) of the given sample precision (2 to 16
// bits; each grey level is scaled to it): one component, each sample
// predicted from its left neighbour (from the one above at the start of a
// row), the differences Huffman-coded with a table of 5-bit codes for the
// 17 difference categories (ITU T.81, annex H).
func JPEGLossless(img *image.Gray, precision int) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var out bytes.Buffer
	out.Write([]byte{0xFF, 0xD8})
	segment(&out, 0xC3, []byte{byte(precision), byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})
	dht := []byte{0x00, 0, 0, 0, 0, 17, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	for c := range 17 {
		dht = append(dht, byte(c))
	}
	segment(&out, 0xC4, dht)
	segment(&out, 0xDA, []byte{1, 1, 0x00, 1, 0, 0}) // predictor 1 (left), no point transform
	sample := func(x, y int) int {
		return (int(img.GrayAt(img.Rect.Min.X+x, img.Rect.Min.Y+y).Y)*(1<<precision-1) + 127) / 255
	}
	var bw bitWriter
	for y := range h {
		for x := range w {
			var pred int
			switch {
			case x == 0 && y == 0:
				pred = 1 << (precision - 1)
			case x == 0:
				pred = sample(0, y-1)
			default:
				pred = sample(x-1, y)
			}
			// Differences are taken modulo 2^16 (T.81, H.1.2.1), in
			// -32767..32768.
			diff := (sample(x, y) - pred) & 0xFFFF
			if diff > 32768 {
				diff -= 1 << 16
			}
			cat, v := 0, diff
			for a := max(diff, -diff); a > 0; a >>= 1 {
				cat++
			}
			if diff < 0 {
				v = diff + 1<<cat - 1
			}
			bw.put(cat, 5)
			if cat < 16 {
				bw.put(v, cat)
			}
		}
	}
	out.Write(bw.flush())
	out.Write([]byte{0xFF, 0xD9})
	return out.Bytes()
}

// JPEGHierarchical writes img as a hierarchical JPEG (ITU T.81, annex J) of
// one frame: the image's size in a DHP segment, then its one
// non-differential frame, extended sequential (SOF1), which Go's encoder
// writes (as baseline, the same bits under another marker).
func JPEGHierarchical(img image.Image) []byte {
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err) // an in-memory image always encodes
	}
	data := enc.Bytes()
	sof := bytes.Index(data, []byte{0xFF, 0xC0})
	if sof < 0 {
		panic("testutil: Go's JPEG encoder wrote no SOF0")
	}
	n := int(binary.BigEndian.Uint16(data[sof+2:]))
	frame := data[sof+4 : sof+2+n]
	dhp := bytes.Clone(frame)
	for c := 0; c < int(dhp[5]); c++ {
		dhp[6+3*c+2] = 0 // DHP names no quantisation table
	}
	var out bytes.Buffer
	out.Write(data[:sof])
	segment(&out, 0xDE, dhp)
	out.Write([]byte{0xFF, 0xC1})
	out.Write(data[sof+2:])
	return out.Bytes()
}

// segment writes a JPEG marker segment: the marker, its length, its body.
func segment(out *bytes.Buffer, marker byte, body []byte) {
	out.Write([]byte{0xFF, marker})
	_ = binary.Write(out, binary.BigEndian, uint16(2+len(body)))
	out.Write(body)
}
