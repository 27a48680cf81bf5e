package decode

import (
	"encoding/binary"
	"image"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
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

// tiffOrientation reads the orientation tag (0x0112) from the first IFD
// of a TIFF structure; 0 when it has none.
func tiffOrientation(t []byte) int {
	o, _ := tiffTag(t, 0x0112)
	return int(o)
}

// exifRotation is the rotation code (mirror left-right, then quarter turns
// clockwise) that shows an image stored with EXIF orientation 1..8 as a
// viewer does: 2 mirrored, 3 turned 180°, 4 mirrored vertically (mirror,
// then 180°), 5 transposed (mirror, then 270°), 6 needing 90° clockwise,
// 7 transversed (mirror, then 90°), 8 needing 270° clockwise.
var exifRotation = [9]geom.Rotation{0, 0, 4, 2, 6, 7, 1, 5, 3}

// applyOrientation turns an image stored with EXIF orientation o into the
// image a viewer shows. 1 (or anything unknown) returns img unchanged.
func applyOrientation(img image.Image, o int) (image.Image, error) {
	if o <= 1 || o > 8 {
		return img, nil
	}
	return cvimg.Turn(img, exifRotation[o])
}
