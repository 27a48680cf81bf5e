package decode

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"docsuite/pkg/testutil"
)

// TestFilePixels checks MaxFilePixels on every multi-page format and a
// single image: a file whose pages together hold one pixel more than the
// limit is refused when it is opened, before any page is decoded, with the
// file's total; one at the limit opens and its first page decodes. A PDF
// refused names a dpi at which it fits (FitDPI), and does fit there.
func TestFilePixels(t *testing.T) {
	read := formatFiles(t)
	tests := []struct {
		name string
		data []byte
		opts Options
		want int64 // the file's pixels
		dpi  bool  // the dpi decides them
	}{
		{"tiff of 10 pages of 1000 x 1000", testutil.TIFFPages(10, 1000, 1000), Options{}, 10_000_000, false},
		{"fax of standard resolution, counted once square", faxPage{x: 204, y: 98, write: faxBilevel}.bytes(t), Options{}, 490 * 654, false},
		{"pdf of 10 letter pages at 72 dpi", testutil.PDFPages(10, 612, 792), Options{DPI: 72}, 10 * 612 * 792, true},
		{"pdf of 10 letter pages rasterised at 100 dpi", testutil.PDFPages(10, 612, 792), Options{DPI: 100, PDFRawImages: true}, 10 * 850 * 1100, true},
		{"three-page pdf", read("three.pdf"), Options{DPI: 100}, -1, true},
		{"two-page djvu", read("two.djvu"), Options{DPI: 100}, -1, true},
		{"jpeg", read("page.jpg"), Options{}, 240 * 320, false},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.TempDir = t.TempDir()
			total := tc.want
			if total < 0 { // the pages' own sizes, as PageCost counts them
				doc, err := Open(ctx, tc.data, tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				total = 0
				for i := range doc.Pages() {
					c, err := PageCost(ctx, doc, i)
					if err != nil {
						t.Fatal(err)
					}
					total += c.Pixels
				}
				_ = doc.Close()
			}
			over := tc.opts
			over.MaxFilePixels = total - 1
			_, err := Open(ctx, tc.data, over)
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != LimitFilePixels || le.Value != total || le.Max != total-1 {
				t.Fatalf("limit %d: got %v, want a file pixel limit error of %d pixels", total-1, err, total)
			}
			fit := le.FitDPI()
			if tc.dpi != (fit > 0) {
				t.Errorf("FitDPI %d at dpi %d", fit, le.DPI)
			}
			at := tc.opts
			at.MaxFilePixels = total
			doc, err := Open(ctx, tc.data, at)
			if err != nil {
				t.Fatalf("limit %d, the file's own pixels: %v", total, err)
			}
			defer func() { _ = doc.Close() }()
			if _, err := doc.Page(ctx, 0); err != nil {
				t.Fatalf("first page: %v", err)
			}
			if fit > 0 {
				lower := over
				lower.DPI = fit
				doc, err := Open(ctx, tc.data, lower)
				if err != nil {
					t.Fatalf("at dpi %d, which the message says fits: %v", fit, err)
				}
				_ = doc.Close()
			}
		})
	}
}

// TestFilePixelsBombRefusedAtOnce sends the file that held both cores for
// the whole of PIPELINE_TIMEOUT: 100 pages of 100 megapixels (the most
// MAX_PAGES and MAX_PIXELS allow) in 23 KB of TIFF sharing one strip, and
// the like in PDF. The default limit refuses each when it is opened, in
// well under a second and without allocating a page.
func TestFilePixelsBombRefusedAtOnce(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want int64
	}{
		{"tiff", testutil.TIFFPages(100, 10000, 10000), 100 * 10000 * 10000},
		{"pdf", testutil.PDFPages(100, 2400, 2400), 100 * 10000 * 10000},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			doc, err := Open(ctx, tc.data, Options{TempDir: t.TempDir()})
			took := time.Since(start)
			if err == nil {
				_ = doc.Close()
			}
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != LimitFilePixels || le.Value != tc.want || le.Max != DefaultMaxFilePixels {
				t.Fatalf("got %v, want a file pixel limit error of %d pixels", err, tc.want)
			}
			if took > 5*time.Second {
				t.Errorf("refused after %v", took)
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Errorf("allocated %d MB before refusing", grew>>20)
			}
		})
	}
}

// strokesPDF is a one-page letter PDF whose Flate-compressed content
// stream strokes the page's diagonal n times: a few kilobytes that take
// poppler about 1.2 ms a stroke at 300 dpi (100,000 strokes ran past its
// 60 s limit).
func strokesPDF(n int) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(bytes.Repeat([]byte("0 0 m 612 792 l S\n"), n))
	_ = zw.Close()
	pdf := testutil.PDF("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
	}, "")
	return append(pdf, bytes.Repeat([]byte("%padding\n"), 120)...)
}

// TestRenderTimeLimit checks that a page whose rendering runs past the
// renderer's time limit (shortened here to a second) is a RenderTimeError,
// an ErrCorrupt naming the page, its dpi and the limit, answered when the
// limit is reached; it was a bare "pdftoppm: context deadline exceeded".
func TestRenderTimeLimit(t *testing.T) {
	ctx := context.Background()
	doc, err := Open(ctx, strokesPDF(20000), Options{TempDir: t.TempDir(), renderLimit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = doc.Close() }()
	start := time.Now()
	_, err = doc.Page(ctx, 0)
	took := time.Since(start)
	var rt *RenderTimeError
	if !errors.As(err, &rt) || !errors.Is(err, ErrCorrupt) || rt.Page != 0 || rt.DPI != 300 || rt.Limit != time.Second {
		t.Fatalf("got %v, want a RenderTimeError of page 1 at dpi 300", err)
	}
	if took > 5*time.Second {
		t.Errorf("answered after %v", took)
	}
	// The request's own deadline stays the request's: no RenderTimeError.
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	if _, err := doc.Page(short, 0); errors.As(err, &rt) || err == nil {
		t.Errorf("with the request's deadline first: %v", err)
	}
}

// TestLaterPageOverPixelLimitRefusedAtOpen checks that a page over
// MaxPixels behind pages that fit is refused when the file is opened, with
// that page's own error, as decoding it would answer: it was refused only
// once the pages before it were decoded, and a total taken over the pages
// that fit would let such a page slip past MaxFilePixels.
func TestLaterPageOverPixelLimitRefusedAtOpen(t *testing.T) {
	pdf := testutil.PDF("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>",
	}, "")
	_, err := Open(context.Background(), append(pdf, bytes.Repeat([]byte("%padding\n"), 120)...), Options{TempDir: t.TempDir()})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitPixels || le.Page != 2 || le.FitDPI() != 49 {
		t.Fatalf("got %v, want page 3's pixel limit error, fitting at dpi 49", err)
	}
}
