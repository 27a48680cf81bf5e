package decode

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"

	"golang.org/x/image/tiff"
)

// TIFF files are read by golang.org/x/image/tiff, which does not know JPEG
// compression (what most document scanners write) or CMYK (print
// workflows). Such a file is measured from its own header and decoded by
// OpenCV (libtiff), the orientation tag still applied by this package.

// tiffConfig is a TIFF file's size: x/image/tiff's header reader, or the
// first IFD's ImageWidth and ImageLength tags where it refuses the file.
func tiffConfig(data []byte) (image.Config, error) {
	cfg, err := tiff.DecodeConfig(bytes.NewReader(data))
	if err == nil {
		return cfg, nil
	}
	w, okW := tiffTag(data, 0x0100)
	h, okH := tiffTag(data, 0x0101)
	if !okW || !okH || w == 0 || h == 0 {
		return image.Config{}, err
	}
	return image.Config{Width: int(w), Height: int(h)}, nil
}

// decodeTIFF decodes the first page of a TIFF file, through OpenCV when
// x/image/tiff cannot. The header's size was checked already.
func decodeTIFF(data []byte) (image.Image, error) {
	img, err := tiff.Decode(bytes.NewReader(data))
	if err == nil {
		return img, nil
	}
	img, cvErr := decodeOpenCV(uprightTIFF(data))
	if cvErr != nil {
		return nil, fmt.Errorf("%w; %w", err, cvErr)
	}
	return img, nil
}

// tiffTag reads a SHORT or LONG tag holding one value from the first IFD
// of a TIFF structure.
func tiffTag(t []byte, tag uint16) (uint32, bool) {
	e, bo, ok := tiffEntry(t, tag)
	if !ok {
		return 0, false
	}
	switch bo.Uint16(t[e+2 : e+4]) {
	case 3: // SHORT
		return uint32(bo.Uint16(t[e+8 : e+10])), true
	case 4: // LONG
		return bo.Uint32(t[e+8 : e+12]), true
	}
	return 0, false
}

// uprightTIFF is a copy of a TIFF file whose orientation tag says the
// image is stored upright. OpenCV's TIFF reader (libtiff's RGBA
// interface) applies the tag whatever imdecode is told, and this package
// applies it itself, as for every other format.
func uprightTIFF(data []byte) []byte {
	e, bo, ok := tiffEntry(data, 0x0112)
	if !ok || bo.Uint16(data[e+2:e+4]) != 3 {
		return data
	}
	out := bytes.Clone(data)
	bo.PutUint16(out[e+8:e+10], 1)
	return out
}

// tiffEntry finds the 12-byte entry of a tag holding one value in the
// first IFD of a TIFF structure: its offset and the file's byte order.
func tiffEntry(t []byte, tag uint16) (int, binary.ByteOrder, bool) {
	if len(t) < 8 {
		return 0, nil, false
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0, nil, false
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 0, nil, false
	}
	n := int(bo.Uint16(t[off : off+2]))
	for i := 0; i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > len(t) {
			return 0, nil, false
		}
		if bo.Uint16(t[e:e+2]) == tag && bo.Uint32(t[e+4:e+8]) == 1 {
			return e, bo, true
		}
	}
	return 0, nil, false
}
