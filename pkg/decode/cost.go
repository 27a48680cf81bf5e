package decode

import (
	"context"
	"encoding/binary"
	"fmt"
)

// Cost is what decoding one page takes in memory, estimated from the
// file's headers before any of its pixels is decoded.
type Cost struct {
	// Pixels is the page's size as handed on.
	Pixels int64
	// Peak is the most bytes the decoding holds at once, the page handed on
	// included: the decoder's own buffers (a progressive JPEG's
	// coefficients, 4 bytes a sample until its last scan), its image, the
	// 8-bit copy (eightBit) and the turned copy of an EXIF orientation.
	Peak int64
	// Page is the bytes of the page as handed on.
	Page int64
}

// The bytes a pixel of the decoders' images and buffers. The figures were
// measured on 10,000 × 10,000 flat pages (peak RSS of the cropper, one
// request on a fresh process, less its idle RSS; docs/operations.md,
// "Memory"): a progressive 4:4:4 JPEG 14.7 bytes a pixel, a progressive
// CMYK one 23.5, a 16-bit RGB or RGBA PNG 11.7, each with the cropper's
// own work on the page (cropsvc).
const (
	// jpegCoefficients is a progressive JPEG's coefficients a sample.
	jpegCoefficients = 4
	// cmykExtra is a 4-component JPEG's CMYK image; its RGBA copy takes
	// the place of the coefficients, collected first (imageDoc.collect).
	cmykExtra = 4
	// openCVImage is OpenCV's BGR Mat and the RGBA image made of it.
	openCVImage = 3 + 4
	// turnExtra is what turning a page by its orientation adds: the
	// turned RGBA image (cvimg.Turn writes it a band at a time, holding a
	// few megabytes beside it), and 1 for those bands and margin.
	turnExtra = 4 + 1
	// rgba is an *image.RGBA's bytes a pixel.
	rgba = 4
)

// PageCost estimates what decoding page i of doc takes in memory (Cost).
// A PDF page may run `pdfimages -list` once for the file, as decoding it
// would. It returns an error where decoding the page would fail before
// any pixel is decoded (a page over the pixel limit).
func PageCost(ctx context.Context, doc Document, i int) (Cost, error) {
	if err := checkPage(i, doc.Pages()); err != nil {
		return Cost{}, err
	}
	switch d := doc.(type) {
	case *imageDoc:
		return d.cost(), nil
	case *tiffDoc:
		if i == 0 {
			return d.first.cost(), nil
		}
		page, err := openImage(tiffAt(d.data, d.ifds, i), TIFF, d.opts)
		if err != nil {
			return Cost{}, err
		}
		return page.cost(), nil
	case *pdfDoc:
		return d.cost(ctx, i), nil
	case *djvuDoc:
		px := d.pagePixels(i)
		return Cost{Pixels: px, Peak: px * rgba, Page: px * rgba}, nil
	}
	return Cost{}, fmt.Errorf("decode: no cost estimate for %T", doc)
}

// cost estimates the decoding of a single image from its header.
func (d *imageDoc) cost() Cost {
	stored := int64(d.w) * int64(d.h)
	square := int64(d.sw) * int64(d.sh)
	var peak, page float64 // bytes a stored pixel
	switch d.format {
	case JPEG:
		peak, page = jpegCost(d.data)
	case PNG:
		peak, page = pngCost(d.data)
	case TIFF:
		peak, page = tiffCost(d.data)
	case GIF:
		peak, page = 1+rgba+rgba, rgba // palette, the screen, the RGBA copy
	case BMP:
		peak, page = openCVImage+1, rgba
	default: // HEIC, HEIF: libheif's RGBA, its copy and the RGBA page
		peak, page = 3*rgba, rgba
	}
	c := Cost{Pixels: square, Peak: int64(peak * float64(stored)), Page: int64(page * float64(stored))}
	// The decoder's leftovers may not have been collected yet when the
	// page is resampled or turned (imageDoc.collect collects large ones
	// first, not small): those copies count on top of its peak (a
	// progressive 4:4:4 JPEG turned by its EXIF orientation: 27.1 bytes
	// a pixel measured before the leftovers were collected and the turn
	// written in bands, 18.0 since).
	if square != stored { // resampled to square pixels through OpenCV
		c.Peak += 3 * rgba * square
		c.Page = rgba * square
	}
	if d.orientation > 1 && d.orientation <= 8 {
		c.Peak += turnExtra * square
		if page > 1 { // a grey page stays grey
			c.Page = rgba * square
		}
	}
	return c
}

// jpegCost is a JPEG's peak and page bytes a pixel, from its frame header.
func jpegCost(data []byte) (peak, page float64) {
	m, at, ok := jpegFrame(data)
	if !ok || at+10 > len(data) {
		return 4*jpegCoefficients + 4 + cmykExtra, rgba // the worst: progressive CMYK
	}
	n := int(data[at+9])
	if at+10+3*n > len(data) || n == 0 {
		return 4*jpegCoefficients + 4 + cmykExtra, rgba
	}
	var hmax, vmax int
	for c := range n {
		f := data[at+11+3*c]
		hmax, vmax = max(hmax, int(f>>4)), max(vmax, int(f&15))
	}
	var planes float64 // samples a pixel
	for c := range n {
		f := data[at+11+3*c]
		planes += float64(int(f>>4)*int(f&15)) / float64(max(hmax*vmax, 1))
	}
	switch m {
	case 0xC0, 0xC1, 0xC2: // image/jpeg's
	default: // arithmetic coding and the rest: OpenCV
		return openCVImage, rgba
	}
	peak, page = planes, planes
	if n == 4 {
		peak, page = planes+cmykExtra, rgba
	}
	if m == 0xC2 {
		peak += jpegCoefficients * planes
	}
	return peak, page
}

// pngCost is a PNG's peak and page bytes a pixel, from its header: the
// decoder's image (twice over for an interlaced one, whose passes are
// decoded apart) and the 8-bit copy of a 16-bit or palette image.
func pngCost(data []byte) (peak, page float64) {
	if len(data) < 29 {
		return 2*8 + rgba, rgba
	}
	depth, colour, interlaced := data[24], data[25], data[28] != 0
	var decoded, copied float64
	switch {
	case colour == 0 && depth == 16: // Gray16, then Gray
		decoded, copied = 2, 1
	case colour == 0: // Gray
		decoded = 1
	case colour == 3: // Paletted, then RGBA (or Gray for a grey palette)
		decoded, copied = 1, rgba
	case depth == 16: // RGBA64 or NRGBA64, then RGBA
		decoded, copied = 8, rgba
	default: // RGBA or NRGBA, made opaque in place
		decoded = rgba
	}
	page = decoded
	if copied > 0 {
		page = copied
	}
	if interlaced {
		decoded *= 2
	}
	return decoded + copied, page
}

// tiffCost is a TIFF page's peak and page bytes a pixel, from its first
// IFD's samples: x/image/tiff's image and its 8-bit copy, beside a strip's
// inflated bytes (a whole page when it is one strip), or OpenCV's images.
func tiffCost(data []byte) (peak, page float64) {
	spp, ok := tiffTag(data, 277) // SamplesPerPixel
	if !ok || spp == 0 {
		spp = 1
	}
	bps := tiffFirstShort(data, 258) // BitsPerSample
	raw := float64(spp) * float64(bps) / 8
	switch {
	case spp == 1 && bps <= 8:
		// Grey or palette; bilevel scans too.
		return raw + 1 + rgba, rgba
	case spp == 1:
		return raw + 2 + 1, 1
	case bps > 8:
		return raw + 8 + rgba, rgba
	}
	return max(raw+rgba, openCVImage), rgba
}

// tiffFirstShort is the first value of a SHORT tag of a TIFF's first IFD
// however many it holds (BitsPerSample has one a sample), 16 when it
// cannot be read: the larger samples, for an estimate that errs high.
func tiffFirstShort(t []byte, tag uint16) uint32 {
	e, bo, ok := tiffEntry(t, tag)
	if !ok || bo.Uint16(t[e+2:e+4]) != 3 {
		return 16
	}
	n := bo.Uint32(t[e+4 : e+8])
	if n <= 2 {
		return uint32(bo.Uint16(t[e+8 : e+10]))
	}
	off := int64(bo.Uint32(t[e+8 : e+12]))
	if off < 0 || off+2 > int64(len(t)) {
		return 16
	}
	return uint32(binary.ByteOrder(bo).Uint16(t[off : off+2]))
}

// renderedPixels is the pixels of PDF page i rasterised at the requested
// dpi (as rasterise sizes it), each side held under 2^31 so that an absurd
// page box cannot overflow the count.
func (d *pdfDoc) renderedPixels(i int) int64 {
	p := d.pages[i]
	scale := float64(d.opts.DPI) / 72
	side := func(pt float64) int64 {
		v := pt*scale + 0.5
		if !(v < maxSquaredSide) { // NaN too
			return maxSquaredSide
		}
		return max(int64(v), 1)
	}
	return side(p.w) * side(p.h)
}

// pagePixels is the pixels of DJVU page i rendered at its resolution
// (scale), as Page sizes it.
func (d *djvuDoc) pagePixels(i int) int64 {
	p := d.pages[i]
	s := int64(d.scale(i))
	return max((int64(p.w)*s+int64(p.dpi)-1)/int64(p.dpi), 1) * max((int64(p.h)*s+int64(p.dpi)-1)/int64(p.dpi), 1)
}

// cost estimates the decoding of PDF page i: the page rasterised through
// pdftoppm's JPEG (the JPEG's bytes and its 4:2:0 planes), or its scanned
// image as stored, whose own header is not read before it is written out:
// a JPEG at its worst (progressive, 4 bytes of coefficients a sample) and
// turned by the page's /Rotate.
func (d *pdfDoc) cost(ctx context.Context, i int) Cost {
	px := d.renderedPixels(i)
	c := Cost{Pixels: px, Peak: px * rgba, Page: px * 3 / 2}
	if !d.opts.PDFRawImages {
		return c
	}
	im, ok := d.scannedImage(ctx, i)
	if !ok {
		return c
	}
	raw := int64(im.w) * int64(im.h)
	comps := int64(max(im.comps, 1))
	peak := raw * (comps*(1+jpegCoefficients) + rgba)
	if comps == 4 {
		peak += raw * cmykExtra
	}
	peak = max(peak, raw*rgba+raw*turnExtra)
	return Cost{Pixels: max(raw, px), Peak: max(peak, c.Peak), Page: max(raw*rgba, c.Page)}
}
