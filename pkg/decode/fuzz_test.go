package decode

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/testutil"
	"time"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// seedImages are small files of every single-image format, made here.
func seedImages(f *testing.F) {
	img := testutil.TestPage(24, 16)
	encoders := []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return jpeg.Encode(b, img, nil) },
		func(b *bytes.Buffer) error { return png.Encode(b, img) },
		func(b *bytes.Buffer) error { return gif.Encode(b, img, nil) },
		func(b *bytes.Buffer) error { return bmp.Encode(b, img) },
		func(b *bytes.Buffer) error { return tiff.Encode(b, img, nil) },
	}
	for _, enc := range encoders {
		var b bytes.Buffer
		if err := enc(&b); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	// TIFFs that x/image/tiff refuses and OpenCV (libtiff) reads, and a
	// fax of pixels not square (resampled).
	dir := f.TempDir()
	testutil.WritePNG(f, dir, "seed.png", img)
	for _, args := range [][]string{{"-compress", "jpeg"}, {"-colorspace", "CMYK"},
		{"-type", "bilevel", "-compress", "Group4", "-units", "PixelsPerInch", "-density", "204x98"}} {
		testutil.Run(f, dir, "convert", append(append([]string{"seed.png"}, args...), "seed.tiff")...)
		data, err := os.ReadFile(filepath.Join(dir, "seed.tiff"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("%PDF-1.4\n"))
	f.Add(testutil.HugePagePDF(100))
	f.Add([]byte("AT&TFORM\x00\x00\x00\x10DJVU"))
	f.Add([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"))
	f.Add([]byte("P6\n2 2\n255\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
}

// FuzzSniff checks the sniffer never panics and names a format only for
// bytes that begin like one.
func FuzzSniff(f *testing.F) {
	seedImages(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		format, err := Sniff(data)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) || format != "" {
				t.Fatalf("error %v with format %q", err, format)
			}
			return
		}
		if format == PDF && !bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-")) {
			t.Fatalf("pdf without a header")
		}
	})
}

// FuzzOpen feeds arbitrary bytes to every decoder entry point with a small
// pixel limit: it must answer an image or an error, never panic, and stay
// within the limit.
func FuzzOpen(f *testing.F) {
	seedImages(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		opts := Options{MaxPixels: 1 << 20, MaxPages: 3, DPI: 20, TempDir: t.TempDir(), PDFRawImages: true, AutoPDFRawImages: true}
		doc, err := Open(ctx, data, opts)
		if err != nil {
			return
		}
		defer doc.Close()
		for i := 0; i < doc.Pages(); i++ {
			img, err := doc.Page(ctx, i)
			if err != nil {
				continue
			}
			if b := img.Bounds(); int64(b.Dx())*int64(b.Dy()) > opts.MaxPixels {
				t.Fatalf("page %d is %v, over the limit", i, b.Size())
			}
		}
	})
}

// FuzzDecodePNM checks the PPM/PGM reader the PDF and DJVU tools feed.
func FuzzDecodePNM(f *testing.F) {
	f.Add([]byte("P6\n2 2\n255\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("P5 # c\n3 1\n255\n\x01\x02\x03"))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := readPNM(bufio.NewReader(bytes.NewReader(data)), Options{MaxPixels: 1 << 20}, 0)
		if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > 1<<20 {
			t.Fatal("over the limit")
		}
	})
}

// FuzzPDFContent: the content stream reader, the one part of a PDF read in
// this process rather than by a tool in a child process, neither panics
// nor runs on forever, whatever the bytes.
func FuzzPDFContent(f *testing.F) {
	for _, s := range []string{
		"q 57.6 0 0 76.8 0 0 cm /Im0 Do Q",
		"q 0 0 10 10 re W n /G gs 1 0 0 1 0 0 cm /Im0 Do Q BT 3 Tr (a\\)b(c)) Tj [(x) -1 <41>] TJ ET",
		"/P << /A [1 2 (x)] >> BDC EMC 1 g 0 0 5 5 re f % comment",
		"BI /W 1 ID x EI",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pdfContentShows(data, "/Im0", func(string) bool { return true }, [4]float64{0, 0, 100, 100})
	})
}
