package decode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
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
	return entryValue(t, bo, e)
}

// entryValue is the value of the IFD entry at e when it is one SHORT or
// LONG.
func entryValue(t []byte, bo binary.ByteOrder, e int) (uint32, bool) {
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

// tiffByteOrder is the byte order a TIFF header names; false when the
// bytes are too short to hold a header or name none.
func tiffByteOrder(t []byte) (binary.ByteOrder, bool) {
	if len(t) < 8 {
		return nil, false
	}
	switch string(t[:2]) {
	case "II":
		return binary.LittleEndian, true
	case "MM":
		return binary.BigEndian, true
	}
	return nil, false
}

// tiffEntry finds the 12-byte entry of a tag holding one value in the
// first IFD of a TIFF structure: its offset and the file's byte order.
func tiffEntry(t []byte, tag uint16) (int, binary.ByteOrder, bool) {
	bo, ok := tiffByteOrder(t)
	if !ok {
		return 0, nil, false
	}
	e, ok := ifdEntry(t, bo, int64(bo.Uint32(t[4:8])), tag)
	return e, bo, ok
}

// ifdEntry finds the entry of a tag holding one value in the IFD at off.
func ifdEntry(t []byte, bo binary.ByteOrder, off int64, tag uint16) (int, bool) {
	if off < 8 || off+2 > int64(len(t)) {
		return 0, false
	}
	n := int64(bo.Uint16(t[off : off+2]))
	for i := int64(0); i < n; i++ {
		e := off + 2 + 12*i
		if e+12 > int64(len(t)) {
			return 0, false
		}
		if bo.Uint16(t[e:e+2]) == tag && bo.Uint32(t[e+4:e+8]) == 1 {
			return int(e), true
		}
	}
	return 0, false
}

// maxTIFFChain bounds the walk along a file's IFD chain.
const maxTIFFChain = 1 << 16

// tiffPageIFDs lists the offsets of a TIFF file's pages: the IFDs along
// its chain, leaving out reduced-resolution copies (thumbnails) and
// transparency masks (NewSubfileType bits 0 and 2, SubfileType 2). The
// walk stops at a loop. A chain that leads out of the file (an IFD at or
// past its end, or running past it) is a file cut short, an ErrCorrupt:
// read as far as it goes, a ten-page scan cut in the middle was answered
// as a whole file of five pages.
func tiffPageIFDs(t []byte) ([]uint32, error) {
	bo, ok := tiffByteOrder(t)
	if !ok {
		return nil, nil
	}
	var pages []uint32
	seen := map[uint32]bool{}
	for off := bo.Uint32(t[4:8]); off >= 8 && !seen[off] && len(seen) < maxTIFFChain; {
		seen[off] = true
		end := int64(off) + 2
		if end <= int64(len(t)) {
			end += 12*int64(bo.Uint16(t[off:off+2])) + 4
		}
		if end > int64(len(t)) {
			return nil, fmt.Errorf("%w: tiff: directory %d, at byte %d, runs past the end of the file (%d bytes): "+
				"the file was cut short, send the whole file", ErrCorrupt, len(seen), off, len(t))
		}
		if !tiffSubsidiary(t, bo, off) {
			pages = append(pages, off)
		}
		off = bo.Uint32(t[end-4 : end])
	}
	return pages, nil
}

// tiffSubsidiary reports whether the IFD at off is a thumbnail or a mask
// of a page rather than a page.
func tiffSubsidiary(t []byte, bo binary.ByteOrder, off uint32) bool {
	if e, ok := ifdEntry(t, bo, int64(off), 0x00FE); ok { // NewSubfileType
		if v, ok := entryValue(t, bo, e); ok && v&0b101 != 0 {
			return true
		}
	}
	if e, ok := ifdEntry(t, bo, int64(off), 0x00FF); ok { // SubfileType
		if v, ok := entryValue(t, bo, e); ok && v == 2 {
			return true
		}
	}
	return false
}

// tiffDoc is a TIFF file of several pages. Page i is decoded from a copy
// of the file whose header points at the page's IFD: strip and tile
// offsets are absolute, so that copy is a valid one-page TIFF.
type tiffDoc struct {
	data  []byte
	opts  Options
	ifds  []uint32
	first *imageDoc
}

// openTIFF opens a TIFF file: one page as any single image, several as a
// tiffDoc, the page limit checked and the first page's size too.
func openTIFF(data []byte, opts Options) (Document, error) {
	ifds, err := tiffPageIFDs(data)
	if err != nil {
		return nil, err
	}
	if len(ifds) > opts.MaxPages {
		return nil, &LimitError{Limit: LimitPages, Value: int64(len(ifds)), Max: int64(opts.MaxPages)}
	}
	first, err := openImage(tiffAt(data, ifds, 0), TIFF, opts)
	if err != nil {
		return nil, err
	}
	if len(ifds) <= 1 {
		return first, nil
	}
	return &tiffDoc{data: data, opts: opts, ifds: ifds, first: first}, nil
}

// tiffAt is the file with its header pointing at page i's IFD.
func tiffAt(data []byte, ifds []uint32, i int) []byte {
	if i >= len(ifds) {
		return data
	}
	bo, _ := tiffByteOrder(data)
	if bo.Uint32(data[4:8]) == ifds[i] {
		return data
	}
	out := bytes.Clone(data)
	bo.PutUint32(out[4:8], ifds[i])
	return out
}

func (d *tiffDoc) Format() Format { return TIFF }
func (d *tiffDoc) Pages() int     { return len(d.ifds) }
func (d *tiffDoc) Close() error   { return nil }

// Page decodes page i when asked; pages are not kept.
func (d *tiffDoc) Page(ctx context.Context, i int) (image.Image, error) {
	if err := checkPage(i, len(d.ifds)); err != nil {
		return nil, err
	}
	// Every page is opened afresh, the first too: the document keeps no
	// decoded page (the cropper keeps a file open while its pages are cut,
	// and a first page held would sit beside each of the others).
	doc, err := openImage(tiffAt(d.data, d.ifds, i), TIFF, d.opts)
	if err != nil {
		var le *LimitError
		if errors.As(err, &le) {
			le.Page = i
		}
		return nil, err
	}
	return doc.Page(ctx, 0)
}
