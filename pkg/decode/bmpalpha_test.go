package decode

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// bmpV5 is a bottom-up 32-bit BMP with a BITMAPV5HEADER (BI_BITFIELDS,
// alpha mask 0xFF000000) of w x h pixels of one colour and alpha a.
func bmpV5(w, h int, r, g, b, a byte) []byte {
	var buf bytes.Buffer
	le := func(v any) { _ = binary.Write(&buf, binary.LittleEndian, v) }
	pix := w * h * 4
	buf.WriteString("BM")
	le(uint32(14 + 124 + pix))
	le(uint32(0))
	le(uint32(14 + 124))
	le(uint32(124))
	le(int32(w))
	le(int32(h))
	le(uint16(1))
	le(uint16(32))
	le(uint32(3)) // BI_BITFIELDS
	le(uint32(pix))
	le(int32(2835))
	le(int32(2835))
	le(uint32(0))
	le(uint32(0))
	le([4]uint32{0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000})
	buf.WriteString("BGRs")
	buf.Write(make([]byte, 36+12))
	le([4]uint32{4, 0, 0, 0})
	for range w * h {
		buf.Write([]byte{b, g, r, a})
	}
	return buf.Bytes()
}

// A 32-bit BMP whose alpha bytes are all 0 is opaque to every viewer
// (browsers, Windows): many writers leave the fourth byte unused. Read as
// alpha, its every pixel was transparent and the page came out white: a
// scan saved so was answered `empty`, the whole page.
func TestBMPUnusedAlphaIsOpaque(t *testing.T) {
	page := firstPage(t, bmpV5(8, 6, 200, 30, 40, 0))
	r, g, b, _ := page.At(3, 3).RGBA()
	if got := [3]uint32{r >> 8, g >> 8, b >> 8}; got != [3]uint32{200, 30, 40} {
		t.Fatalf("pixel %v, want the stored colour (200, 30, 40)", got)
	}
	// Real alpha still lays the pixels on white.
	page = firstPage(t, bmpV5(8, 6, 0, 0, 0, 0x80))
	if r, _, _, _ := page.At(3, 3).RGBA(); r>>8 < 100 || r>>8 > 155 {
		t.Fatalf("half-transparent black on white is %d, want about 127", r>>8)
	}
}
