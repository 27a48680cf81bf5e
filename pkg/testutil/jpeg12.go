package testutil

import (
	"bytes"
	"encoding/binary"
	"image"
)

// JPEG12 writes img as a greyscale JPEG of 12 bits a sample (extended
// sequential, SOF1, as medical and archival tools write them), which no
// decoder of this project reads: each 8×8 block keeps only its mean (its DC
// coefficient), which is all a test of how such a file is refused needs.
func JPEG12(img *image.Gray) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var out bytes.Buffer
	segment := func(marker byte, body []byte) {
		out.Write([]byte{0xFF, marker})
		_ = binary.Write(&out, binary.BigEndian, uint16(2+len(body)))
		out.Write(body)
	}
	out.Write([]byte{0xFF, 0xD8})
	dqt := []byte{0x10} // 16-bit table 0, every step 1
	for range 64 {
		dqt = append(dqt, 0, 1)
	}
	segment(0xDB, dqt)
	segment(0xC1, []byte{12, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})
	// DC table 0: the 16 difference categories, 5 bits each; AC table 0:
	// end-of-block alone, 1 bit.
	dht := append([]byte{0x00, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
	dht = append(dht, 0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	segment(0xC4, dht)
	segment(0xDA, []byte{1, 1, 0x00, 0, 63, 0})
	var bw bitWriter
	pred := 0
	for by := 0; by < (h+7)/8; by++ {
		for bx := 0; bx < (w+7)/8; bx++ {
			sum, n := 0, 0
			for y := by * 8; y < min(by*8+8, h); y++ {
				for x := bx * 8; x < min(bx*8+8, w); x++ {
					sum += int(img.GrayAt(img.Rect.Min.X+x, img.Rect.Min.Y+y).Y)
					n++
				}
			}
			dc := ((sum*4095/255+n/2)/n - 2048) * 8
			diff := dc - pred
			pred = dc
			cat, v := 0, diff
			for a := max(diff, -diff); a > 0; a >>= 1 {
				cat++
			}
			if diff < 0 {
				v = diff + 1<<cat - 1
			}
			bw.put(cat, 5)
			bw.put(v, cat)
			bw.put(0, 1) // end of block
		}
	}
	out.Write(bw.flush())
	out.Write([]byte{0xFF, 0xD9})
	return out.Bytes()
}

// bitWriter packs entropy-coded bits, stuffing a 0 after each 0xFF.
type bitWriter struct {
	out  []byte
	acc  uint32
	bits int
}

func (b *bitWriter) put(v, n int) {
	for i := n - 1; i >= 0; i-- {
		b.acc = b.acc<<1 | uint32(v>>i&1)
		if b.bits++; b.bits == 8 {
			b.out = append(b.out, byte(b.acc))
			if byte(b.acc) == 0xFF {
				b.out = append(b.out, 0)
			}
			b.acc, b.bits = 0, 0
		}
	}
}

// flush pads the last byte with 1 bits and returns the bytes.
func (b *bitWriter) flush() []byte {
	for b.bits != 0 {
		b.put(1, 1)
	}
	return b.out
}
