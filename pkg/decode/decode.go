// Package decode turns an uploaded file into a sequence of page images.
//
// The format is told from the bytes (Sniff), never from a file name.
// Single images (JPEG, PNG, GIF, BMP, HEIC, HEIF) are one page; PDF, DJVU
// and TIFF files may be many. Documents are opened cheaply (page count and
// page sizes only) and each page is decoded when asked for, so a 100-page
// PDF never holds 100 decoded pages. Every page's pixel count is checked
// against Options.MaxPixels before anything of that size is allocated, and
// PDF and DJVU pages are rendered by poppler and djvulibre in child
// processes bounded in time and memory, so a malicious file can neither
// exhaust this process's memory nor crash it.
package decode

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"time"
)

// Format is a supported input format.
type Format string

// The supported formats.
const (
	JPEG Format = "jpeg"
	PNG  Format = "png"
	GIF  Format = "gif"
	TIFF Format = "tiff"
	BMP  Format = "bmp"
	HEIC Format = "heic"
	HEIF Format = "heif"
	PDF  Format = "pdf"
	DJVU Format = "djvu"
)

// Formats lists every supported format in the order the docs name them.
var Formats = []Format{JPEG, PNG, TIFF, BMP, GIF, HEIC, HEIF, PDF, DJVU}

// MultiPage reports whether files of the format may hold several pages.
func (f Format) MultiPage() bool { return f == PDF || f == DJVU || f == TIFF }

var (
	// ErrUnsupported means the bytes are none of the supported formats.
	ErrUnsupported = errors.New("decode: unsupported format")
	// ErrCorrupt means the bytes start like a supported format but cannot
	// be decoded.
	ErrCorrupt = errors.New("decode: corrupt file")
)

// The limits a LimitError names.
const (
	// LimitPages is MaxPages: the file's page count.
	LimitPages = "pages"
	// LimitPixels is MaxPixels: one page's pixels.
	LimitPixels = "pixels"
	// LimitFilePixels is MaxFilePixels: the pixels of all the file's
	// pages together.
	LimitFilePixels = "file pixels"
)

// LimitError reports a file over one of the configured limits.
type LimitError struct {
	// Limit is LimitPages, LimitPixels or LimitFilePixels.
	Limit string
	// Value is what the file has, Max the configured limit.
	Value, Max int64
	// Page is the 0-based page over the pixel limit.
	Page int
	// Pages is the file's page count, for a file pixel limit error.
	Pages int
	// DPI is the resolution a PDF or DJVU page (or file) over a pixel limit
	// was to be rendered at, which a lower dpi parameter brings down
	// (FitDPI); 0 where the pixels are the file's own.
	DPI int
}

// FitDPI is the highest resolution at which the page of a pixel limit
// error rendered at e.DPI fits the limit, 0 when the dpi does not decide
// its size (an image, a PDF page's embedded scan). It keeps a thousandth
// of margin for the renderers' rounding of the page's sides.
func (e *LimitError) FitDPI() int {
	if e.Limit == LimitPages || e.DPI <= 0 || e.Value <= 0 {
		return 0
	}
	return int(float64(e.DPI) * math.Sqrt(float64(e.Max)/float64(e.Value)) * 0.999)
}

// atDPI notes on a pixel limit error the resolution its page was to be
// rendered at.
func atDPI(err error, dpi int) error {
	var le *LimitError
	if errors.As(err, &le) {
		le.DPI = dpi
	}
	return err
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case LimitPages:
		return fmt.Sprintf("decode: file has %d pages, limit %d", e.Value, e.Max)
	case LimitFilePixels:
		return fmt.Sprintf("decode: file's %d pages have %d pixels together, limit %d", e.Pages, e.Value, e.Max)
	}
	return fmt.Sprintf("decode: page %d has %d pixels, limit %d", e.Page+1, e.Value, e.Max)
}

// corrupt wraps a decoder failure as ErrCorrupt, keeping its text.
func corrupt(format Format, err error) error {
	return fmt.Errorf("%w: %s: %v", ErrCorrupt, format, err)
}

// Options are the decoding parameters of one request and the limits of
// the deployment.
type Options struct {
	// DPI is the rasterisation resolution of PDF and DJVU pages (default 300).
	DPI int
	// Quality is the JPEG quality of rasterised PDF pages (default 75).
	Quality int
	// PDFRawImages lets a scanned PDF page's embedded image be used as it
	// is; false rasterises every page.
	PDFRawImages bool
	// AutoPDFRawImages (with PDFRawImages) still rasterises pages that carry
	// a text layer.
	AutoPDFRawImages bool
	// MaxPages and MaxPixels are the limits (defaults 100 and 100 MP).
	MaxPages  int
	MaxPixels int64
	// MaxFilePixels bounds the pixels of all the file's pages together
	// (default DefaultMaxFilePixels), checked when the file is opened.
	MaxFilePixels int64
	// TempDir holds the temporary copies PDF and DJVU tools read (default:
	// the system temporary directory).
	TempDir string
	// renderLimit is the time rendering one PDF or DJVU page may take
	// (default toolTimeout); the tests shorten it.
	renderLimit time.Duration
}

func (o Options) withDefaults() Options {
	if o.DPI <= 0 {
		o.DPI = 300
	}
	if o.Quality < 0 || o.Quality > 100 {
		o.Quality = 75
	}
	if o.MaxPages <= 0 {
		o.MaxPages = 100
	}
	if o.MaxPixels <= 0 {
		o.MaxPixels = 100_000_000
	}
	if o.MaxFilePixels <= 0 {
		o.MaxFilePixels = DefaultMaxFilePixels
	}
	if o.renderLimit <= 0 {
		o.renderLimit = toolTimeout
	}
	return o
}

// checkPixels refuses a page of w×h pixels over the limit.
func (o Options) checkPixels(page int, w, h int64) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%w: page %d has size %dx%d", ErrCorrupt, page+1, w, h)
	}
	if w > o.MaxPixels || h > o.MaxPixels || w*h > o.MaxPixels {
		return &LimitError{Limit: LimitPixels, Value: w * h, Max: o.MaxPixels, Page: page}
	}
	return nil
}

// Document is an opened file. Its methods are safe for concurrent use.
type Document interface {
	// Format is the sniffed format.
	Format() Format
	// Pages is the number of pages (1 for single images).
	Pages() int
	// Page decodes page i (0-based) as a viewer shows it: EXIF orientation
	// applied, PDF/DJVU page rotation applied.
	Page(ctx context.Context, i int) (image.Image, error)
	// Close releases temporary files.
	Close() error
}

// Open sniffs the format, checks the page limit and prepares lazy page
// decoding. Single images have their size checked here too, so an
// oversized image fails before any decoding, and so do the pixels of all
// the file's pages together (MaxFilePixels, filePixels).
func Open(ctx context.Context, data []byte, opts Options) (Document, error) {
	opts = opts.withDefaults()
	f, err := Sniff(data)
	if err != nil {
		return nil, err
	}
	var doc Document
	switch f {
	case PDF:
		doc, err = openPDF(ctx, data, opts)
	case DJVU:
		doc, err = openDJVU(ctx, data, opts)
	case TIFF:
		doc, err = openTIFF(data, opts)
	default:
		doc, err = openImage(data, f, opts)
	}
	if err != nil {
		return nil, err
	}
	if err := checkFilePixels(ctx, doc, opts); err != nil {
		_ = doc.Close()
		return nil, err
	}
	return doc, nil
}

// checkPage validates a page index.
func checkPage(i, n int) error {
	if i < 0 || i >= n {
		return fmt.Errorf("decode: page %d of a %d-page file", i+1, n)
	}
	return nil
}
