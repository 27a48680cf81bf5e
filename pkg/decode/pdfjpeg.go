package decode

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
)

// A JPEG stream no decoder here reads (12 bits a sample, lossless,
// hierarchical) poppler reads no better: pdftoppm renders the page without
// the image (white where it lies, black under a /Decode that inverts it),
// exits 0 and writes nothing to stderr. A scanned page shown as stored
// meets this when its image is written out (extract); every page that is
// rasterised instead has the frame headers of the JPEG streams it draws
// read first (qpdf writes each stream as stored), and is refused the same
// way rather than answered blank.

// jpegHeadMax bounds what is read of one JPEG stream to find its frame
// header, which follows the file's APPn segments (EXIF, ICC profile:
// rarely over 100 KB together).
const jpegHeadMax = 1 << 20

// errHeadRead stops qpdf once a stream's start has been read.
var errHeadRead = errors.New("stream start read")

// unreadableJPEG returns the ErrUnsupported error of the first image page
// i draws (0-based) that is a JPEG stream no decoder here reads; nil when
// there is none, or nothing tells (pdfimages or qpdf failing, a stream
// under filters other than Flate, an inline image), and the page is
// rendered as before.
func (d *pdfDoc) unreadableJPEG(ctx context.Context, i int) error {
	d.imagesOnce.Do(func() { d.images, d.imagesErr = d.listImages(ctx) })
	if d.imagesErr != nil {
		return nil
	}
	for _, im := range d.images[i+1] {
		if im.enc != "jpeg" {
			continue
		}
		if err := d.jpegStreamError(ctx, im.obj); err != nil {
			return fmt.Errorf("%w: pdf: page %d draws an image (object %s), which poppler does not read either", err, i+1, im.obj)
		}
	}
	return nil
}

// jpegStreamError is jpegUnsupported of the JPEG stream of the image
// object obj ("12 0 R"), read once per file.
func (d *pdfDoc) jpegStreamError(ctx context.Context, obj string) error {
	d.jpegMu.Lock()
	defer d.jpegMu.Unlock()
	if err, ok := d.jpegErrs[obj]; ok {
		return err
	}
	n, g, ok := objectNumber(obj)
	if !ok {
		return nil
	}
	var head []byte
	err := streamTool(ctx, 1<<30, 64<<20, func(r io.Reader) error {
		var err error
		head, err = io.ReadAll(io.LimitReader(r, jpegHeadMax))
		if err != nil {
			return err
		}
		return errHeadRead
	}, "qpdf", "--warning-exit-0", "--no-warn", "--show-object="+n+","+g, "--raw-stream-data", d.path)
	if err != nil && !errors.Is(err, errHeadRead) {
		return nil // not cached: a cancelled request is no verdict on the file
	}
	res := jpegUnsupported(jpegStream(head))
	if d.jpegErrs == nil {
		d.jpegErrs = map[string]error{}
	}
	d.jpegErrs[obj] = res
	return res
}

// jpegStream is the start of the JPEG file a DCT stream's raw data holds:
// the data itself, or inflated when the stream is Flate-compressed too
// (/Filter [/FlateDecode /DCTDecode]); nil when it is neither.
func jpegStream(raw []byte) []byte {
	soi := []byte{0xFF, 0xD8}
	if bytes.HasPrefix(raw, soi) {
		return raw
	}
	zr, err := zlib.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	defer zr.Close()
	// raw may be the compressed stream's start only: what inflates of it.
	data, _ := io.ReadAll(io.LimitReader(zr, jpegHeadMax))
	if !bytes.HasPrefix(data, soi) {
		return nil
	}
	return data
}
