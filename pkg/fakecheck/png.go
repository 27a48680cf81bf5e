package fakecheck

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"io"
)

// inflateBudget is the most all decompression of one file may produce.
const inflateBudget = 8 << 20

// maxInflates bounds how many compressed streams one file may have
// inflated, whatever their size.
const maxInflates = 64

// maxChunks bounds how many PNG or RIFF chunks are walked.
const maxChunks = 1 << 16

// png reads the text chunks and the eXIf chunk of a PNG file.
func (c *collector) png(data []byte) {
	pos := 8
	for chunks := 0; pos+12 <= len(data) && chunks < maxChunks; chunks++ {
		n := uint64(binary.BigEndian.Uint32(data[pos : pos+4]))
		if uint64(pos)+12+n > uint64(len(data)) {
			return
		}
		typ := string(data[pos+4 : pos+8])
		body := data[pos+8 : pos+8+int(n)]
		switch typ {
		case "tEXt":
			if k, v, ok := bytes.Cut(body, []byte{0}); ok {
				c.pngText(string(k), v)
			}
		case "zTXt":
			if k, v, ok := bytes.Cut(body, []byte{0}); ok && len(v) > 1 {
				c.pngText(string(k), c.inflate(v[1:]))
			}
		case "iTXt":
			c.pngIText(body)
		case "eXIf":
			c.tiff(body, "exif")
		case "IEND":
			return
		}
		pos += 12 + int(n)
	}
}

// pngIText reads an iTXt chunk: keyword, compression flag and method,
// language tag, translated keyword, then the UTF-8 text.
func (c *collector) pngIText(body []byte) {
	k, rest, ok := bytes.Cut(body, []byte{0})
	if !ok || len(rest) < 2 {
		return
	}
	compressed := rest[0] == 1
	rest = rest[2:]
	for range 2 {
		if _, rest, ok = bytes.Cut(rest, []byte{0}); !ok {
			return
		}
	}
	if compressed {
		rest = c.inflate(rest)
	}
	c.pngText(string(k), rest)
}

// pngText handles one text chunk by its keyword.
func (c *collector) pngText(key string, v []byte) {
	if !c.spend() {
		return
	}
	switch key {
	case "XML:com.adobe.xmp":
		c.xmpPacket(v)
	case "Software", "Comment", "Source":
		c.value("png_text", key, string(v[:min(len(v), 4*maxValue)]))
	case "Raw profile type exif", "Raw profile type APP1":
		if b := rawProfile(v); hasPrefix(b, exifPrefix) {
			c.tiff(b[len(exifPrefix):], "exif")
		} else {
			c.tiff(b, "exif")
		}
	case "Raw profile type xmp":
		c.xmpPacket(rawProfile(v))
	}
}

// rawProfile decodes ImageMagick's "Raw profile type" text: a newline, the
// profile name, a newline, the decimal length, then hex digits broken by
// newlines. The result is never longer than the text.
func rawProfile(v []byte) []byte {
	v = bytes.TrimLeft(v, "\n")
	for range 2 { // the name and the length lines
		if i := bytes.IndexByte(v, '\n'); i >= 0 {
			v = v[i+1:]
		} else {
			return nil
		}
	}
	out := make([]byte, 0, len(v)/2)
	var pair [2]byte
	n := 0
	for _, ch := range v {
		if ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t' {
			continue
		}
		pair[n] = ch
		if n++; n == 2 {
			var b [1]byte
			if _, err := hex.Decode(b[:], pair[:]); err != nil {
				break
			}
			out = append(out, b[0])
			n = 0
		}
	}
	return out
}

// inflate decompresses a zlib stream within what is left of the budget.
func (c *collector) inflate(b []byte) []byte {
	if c.budget <= 0 || c.inflates >= maxInflates {
		return nil
	}
	c.inflates++
	r, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	defer r.Close()
	var buf bytes.Buffer
	n, _ := io.Copy(&buf, io.LimitReader(r, int64(c.budget)))
	c.budget -= int(n)
	return buf.Bytes()
}

// webp reads the EXIF and XMP chunks of a RIFF WebP file.
func (c *collector) webp(data []byte) {
	pos := 12
	for chunks := 0; pos+8 <= len(data) && chunks < maxChunks; chunks++ {
		n := uint64(binary.LittleEndian.Uint32(data[pos+4 : pos+8]))
		if uint64(pos)+8+n > uint64(len(data)) {
			return
		}
		body := data[pos+8 : pos+8+int(n)]
		switch string(data[pos : pos+4]) {
		case "EXIF":
			if hasPrefix(body, exifPrefix) {
				body = body[len(exifPrefix):]
			}
			c.tiff(body, "exif")
		case "XMP ":
			c.xmpPacket(body)
		}
		pos += 8 + int(n) + int(n&1)
	}
}

// isHEIF recognises an ISO base media file with an image brand.
func isHEIF(data []byte) bool {
	if len(data) < 12 || string(data[4:8]) != "ftyp" {
		return false
	}
	switch string(data[8:12]) {
	case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis":
		return true
	}
	return false
}

// heif finds the Exif item of a HEIC/HEIF/AVIF file by its "Exif\0\0"
// prefix followed by a TIFF header, and its XMP packets.
func (c *collector) heif(data []byte) {
	rest := data
	for tries := 0; tries < 8; tries++ {
		i := bytes.Index(rest, []byte(exifPrefix))
		if i < 0 {
			break
		}
		t := rest[i+len(exifPrefix):]
		if hasPrefix(t, "II*\x00") || hasPrefix(t, "MM\x00*") {
			c.tiff(t, "heic_exif")
			break
		}
		rest = t
	}
	c.xmpScan(data)
}
