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
	b := PDF("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >>", side, side),
	}, "")
	return append(b, bytes.Repeat([]byte("%padding\n"), 120)...)
}
