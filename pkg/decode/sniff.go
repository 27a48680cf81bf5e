package decode

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Sniff tells the format from the first bytes of a file.
func Sniff(data []byte) (Format, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG, nil
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, nil
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF, nil
	case bytes.HasPrefix(data, []byte("II*\x00")), bytes.HasPrefix(data, []byte("MM\x00*")):
		return TIFF, nil
	case isBMP(data):
		return BMP, nil
	case bytes.HasPrefix(data, []byte("AT&TFORM")) && len(data) >= 16 &&
		(string(data[12:16]) == "DJVU" || string(data[12:16]) == "DJVM"):
		return DJVU, nil
	}
	if f, ok := heifBrand(data); ok {
		return f, nil
	}
	// The PDF header may follow some junk; readers accept it in the first KB.
	head := data[:min(len(data), 1024)]
	if bytes.Contains(head, []byte("%PDF-")) {
		return PDF, nil
	}
	return "", fmt.Errorf("%w (first bytes % x)", ErrUnsupported, data[:min(len(data), 8)])
}

// isBMP checks the BM signature and a known DIB header size, since "BM"
// alone is too weak a signature.
func isBMP(data []byte) bool {
	if len(data) < 26 || data[0] != 'B' || data[1] != 'M' {
		return false
	}
	switch binary.LittleEndian.Uint32(data[14:18]) {
	case 12, 40, 52, 56, 64, 108, 124:
		return true
	}
	return false
}

// heifBrand reads the ISO BMFF ftyp box: the major brand and the
// compatible brands name HEIC (HEVC-coded) or generic HEIF images.
func heifBrand(data []byte) (Format, bool) {
	if len(data) < 16 || string(data[4:8]) != "ftyp" {
		return "", false
	}
	size := int(binary.BigEndian.Uint32(data[0:4]))
	if size < 16 || size > len(data) {
		size = min(len(data), 64)
	}
	brands := []string{string(data[8:12])}
	for off := 16; off+4 <= size; off += 4 {
		brands = append(brands, string(data[off:off+4]))
	}
	generic, avif := false, false
	for _, b := range brands {
		switch b {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs":
			return HEIC, true
		case "mif1", "msf1", "heif":
			generic = true
		case "avif", "avis":
			avif = true
		}
	}
	// AVIF shares the container but is not an accepted format.
	if generic && !avif {
		return HEIF, true
	}
	return "", false
}
