package testutil

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
)

// PNGBomb is a valid 1-bit greyscale PNG claiming w×h pixels with only its
// first row of pixel data, padded by a text chunk past the service's 1 KB
// minimum: a few KB that a naive decoder would expand to gigabytes.
func PNGBomb(w, h int) []byte {
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&out, binary.BigEndian, uint32(len(data)))
		out.WriteString(typ)
		out.Write(data)
		_ = binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 1 // 1-bit greyscale
	chunk("IHDR", ihdr)
	chunk("tEXt", append([]byte("Comment\x00"), bytes.Repeat([]byte("x"), 2048)...))
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 1+(w+7)/8))
	_ = zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// HugePagePDF is a hand-written one-page PDF whose page is side×side
// points (14400 is 200 inches: 60000×60000 pixels at 300 dpi), padded
// with comments past the service's 1 KB minimum.
func HugePagePDF(side int) []byte {
	b := PDF("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >>", side, side),
	}, "")
	return append(b, bytes.Repeat([]byte("%padding\n"), 120)...)
}

// TIFFPages is a little-endian TIFF of n blank bilevel pages of w×h
// pixels whose directories all point at one shared Deflate strip: a few
// kilobytes for a 100-page file of 100-megapixel pages, which decodes to
// n full pages. Its pixels are square (no resolution tags).
func TIFFPages(n, w, h int) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	row := make([]byte, (w+7)/8) // 0 is white under WhiteIsZero
	for range h {
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	strip := z.Bytes()
	type entry struct {
		tag, typ uint16
		val      uint32
	}
	entries := []entry{
		{256, 4, uint32(w)},          // ImageWidth
		{257, 4, uint32(h)},          // ImageLength
		{258, 3, 1},                  // BitsPerSample
		{259, 3, 8},                  // Compression: Deflate
		{262, 3, 0},                  // PhotometricInterpretation: WhiteIsZero
		{273, 4, 8},                  // StripOffsets: the shared strip
		{277, 3, 1},                  // SamplesPerPixel
		{278, 4, uint32(h)},          // RowsPerStrip
		{279, 4, uint32(len(strip))}, // StripByteCounts
	}
	ifdSize := 2 + 12*len(entries) + 4
	first := 8 + len(strip)
	first += first & 1 // IFDs start on a word boundary
	var out bytes.Buffer
	le := binary.LittleEndian
	out.WriteString("II")
	_ = binary.Write(&out, le, uint16(42))
	_ = binary.Write(&out, le, uint32(first))
	out.Write(strip)
	for out.Len() < first {
		out.WriteByte(0)
	}
	for i := range n {
		_ = binary.Write(&out, le, uint16(len(entries)))
		for _, e := range entries {
			_ = binary.Write(&out, le, e.tag)
			_ = binary.Write(&out, le, e.typ)
			_ = binary.Write(&out, le, uint32(1))
			if e.typ == 3 {
				_ = binary.Write(&out, le, uint16(e.val))
				_ = binary.Write(&out, le, uint16(0))
			} else {
				_ = binary.Write(&out, le, e.val)
			}
		}
		next := uint32(0)
		if i < n-1 {
			next = uint32(first + (i+1)*ifdSize)
		}
		_ = binary.Write(&out, le, next)
	}
	for out.Len() < 1024 { // past the service's 1 KB minimum
		out.WriteByte(0)
	}
	return out.Bytes()
}

// PDFPages is a hand-written PDF of n blank pages of w×h points (612 ×
// 792 is US letter: 2550 × 3300 pixels at 300 dpi), padded with comments
// past the service's 1 KB minimum.
func PDFPages(n, w, h int) []byte {
	kids := make([]string, n)
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	for i := range n {
		kids[i] = fmt.Sprintf("%d 0 R", i+3)
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >>", w, h))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return append(PDF("1.4", objs, ""), bytes.Repeat([]byte("%padding\n"), 120)...)
}
