package decode

import (
	"context"
	"encoding/binary"
	"math"
)

// DefaultMaxFilePixels is the default of Options.MaxFilePixels: 1,000
// megapixels, a hundred A4 pages at 300 dpi (870 megapixels) and some
// margin. The all-in-one on 2 cores took 43 s for a 10-page invoice at
// that many pixels and 63 s for 100 blank A4 pages (docs/formats.md,
// Limits), inside the default PIPELINE_TIMEOUT of 120 s; the most MaxPages
// and MaxPixels allowed otherwise (100 pages of 100 megapixels, a TIFF of
// 23 KB) held both cores for the whole timeout and was answered 503.
const DefaultMaxFilePixels = 1_000_000_000

// checkFilePixels refuses, from the file's headers and before any page is
// decoded, a file with a page that cannot come within opts.MaxPixels (the
// page's own error, as decoding it would answer, so that a file cannot slip
// a page of any size past the total behind pages that decode first), or
// whose pages hold more pixels together than opts.MaxFilePixels.
func checkFilePixels(ctx context.Context, doc Document, opts Options) error {
	var total int64
	fileDPI := opts.DPI
	for i, p := range pageCounts(ctx, doc) {
		if p.least > opts.MaxPixels {
			return &LimitError{Limit: LimitPixels, Value: p.least, Max: opts.MaxPixels, Page: i, DPI: p.dpi}
		}
		total = addPixels(total, p.most)
		if p.dpi != opts.DPI {
			fileDPI = 0
		}
	}
	if total > opts.MaxFilePixels {
		return &LimitError{Limit: LimitFilePixels, Value: total, Max: opts.MaxFilePixels, Pages: doc.Pages(), DPI: fileDPI}
	}
	return nil
}

// pageCount is what a page will be handed on as, in pixels, told from the
// file's headers.
type pageCount struct {
	// least and most bound the page's pixels (PageCost's Pixels is most):
	// they differ for a PDF page of one scan, which is kept as its image is
	// stored or rasterised at no more than dpi, whichever its drawing
	// allows.
	least, most int64
	// dpi is the resolution the page is rendered at, which a lower dpi
	// parameter brings its pixels down with (their square); 0 where the
	// pixels are the file's own.
	dpi int
}

// pageCounts is pageCount of each of doc's pages: a TIFF page once its
// pixels are square, a PDF page at the requested dpi or as its scan is
// stored, a DJVU page at its render resolution, as the pages are decoded
// and as PageCost counts them.
func pageCounts(ctx context.Context, doc Document) []pageCount {
	switch d := doc.(type) {
	case *imageDoc:
		px := int64(d.sw) * int64(d.sh)
		return []pageCount{{least: px, most: px}}
	case *tiffDoc:
		bo, _ := tiffByteOrder(d.data)
		out := make([]pageCount, len(d.ifds))
		for i, off := range d.ifds {
			px := tiffPagePixels(d.data, bo, int64(off))
			out[i] = pageCount{least: px, most: px}
		}
		return out
	case *pdfDoc:
		out := make([]pageCount, len(d.pages))
		for i := range d.pages {
			px := d.renderedPixels(i)
			out[i] = pageCount{least: px, most: px, dpi: d.opts.DPI}
			if !d.opts.PDFRawImages {
				continue
			}
			if im, ok := d.scannedImage(ctx, i); ok {
				raw := mulPixels(int64(im.w), int64(im.h))
				// Its pixels are the scan's or, rasterised, fewer than at
				// dpi: no dpi says what fits.
				out[i] = pageCount{least: min(raw, px), most: max(raw, px)}
			}
		}
		return out
	case *djvuDoc:
		out := make([]pageCount, len(d.pages))
		for i := range d.pages {
			px := d.pagePixels(i)
			out[i] = pageCount{least: px, most: px, dpi: d.scale(i)}
		}
		return out
	}
	return nil
}

// tiffPagePixels is the pixels of the TIFF page whose IFD is at off once
// they are square (as openImage counts a page); 0 when its size cannot be
// read, which decoding the page answers.
func tiffPagePixels(t []byte, bo binary.ByteOrder, off int64) int64 {
	ew, okW := ifdEntry(t, bo, off, 0x0100) // ImageWidth
	eh, okH := ifdEntry(t, bo, off, 0x0101) // ImageLength
	if !okW || !okH {
		return 0
	}
	w, okW := entryValue(t, bo, ew)
	h, okH := entryValue(t, bo, eh)
	if !okW || !okH {
		return 0
	}
	sw, sh := int64(w), int64(h)
	if x, y, ok := ifdResolution(t, bo, off); ok {
		a, b := squareSize(int(w), int(h), x, y)
		sw, sh = int64(a), int64(b)
	}
	return mulPixels(sw, sh)
}

// mulPixels is w × h, saturated at math.MaxInt64.
func mulPixels(w, h int64) int64 {
	if w <= 0 || h <= 0 {
		return 0
	}
	if w > math.MaxInt64/h {
		return math.MaxInt64
	}
	return w * h
}

// addPixels is a + b, saturated at math.MaxInt64; a negative b (a count
// that overflowed) saturates too.
func addPixels(a, b int64) int64 {
	if b < 0 || a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
