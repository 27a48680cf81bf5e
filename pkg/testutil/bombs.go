package testutil

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
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
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	var offs []int
	for _, o := range []string{
		"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n",
		"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n",
		fmt.Sprintf("3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >> endobj\n", side, side),
	} {
		offs = append(offs, b.Len())
		b.WriteString(o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	b.Write(bytes.Repeat([]byte("%padding\n"), 120))
	return b.Bytes()
}
