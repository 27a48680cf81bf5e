package decode

import (
	"context"
	"image"
	"os"
	"testing"

	"docsuite/pkg/testutil"
)

func TestEveryFormat(t *testing.T) {
	files := testutil.FormatFiles(t)
	tests := []struct {
		file   string
		opts   Options
		format Format
		pages  int
		w, h   int  // size of page 1
		plain  bool // the page has no red block (tesseract reads no text beside one)
	}{
		{file: "page.jpg", format: JPEG, pages: 1, w: 240, h: 320},
		{file: "page.png", format: PNG, pages: 1, w: 240, h: 320},
		{file: "page.gif", format: GIF, pages: 1, w: 240, h: 320},
		// A fax or a scanner's multi-page TIFF: every page.
		{file: "page.tiff", format: TIFF, pages: 2, w: 240, h: 320},
		{file: "page_jpeg.tiff", format: TIFF, pages: 1, w: 240, h: 320},
		{file: "page_cmyk.tiff", format: TIFF, pages: 1, w: 240, h: 320},
		{file: "page.bmp", format: BMP, pages: 1, w: 240, h: 320},
		{file: "page_rle.bmp", format: BMP, pages: 1, w: 240, h: 320},
		{file: "page.heic", format: HEIC, pages: 1, w: 240, h: 320},
		{file: "page.heif", format: HEIF, pages: 1, w: 240, h: 320},
		// The scanned page's own image, untouched.
		{file: "page.pdf", opts: Options{PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 1, w: 240, h: 320},
		// The image turned as the page's /Rotate says, not rasterised.
		{file: "page_rot.pdf", opts: Options{PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 1, w: 240, h: 320},
		{file: "page_rot.pdf", opts: Options{DPI: 192}, format: PDF, pages: 1, w: 480, h: 640},
		// img2pdf places it at 96 dpi: rasterised at 192 dpi it doubles.
		{file: "page.pdf", opts: Options{DPI: 192}, format: PDF, pages: 1, w: 480, h: 640},
		{file: "three.pdf", opts: Options{PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 3, w: 240, h: 320},
		// A text layer makes the page rasterised (tesseract's PDF is 70 dpi).
		{file: "text.pdf", opts: Options{DPI: 140, PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 1, w: 480, h: 640, plain: true},
		{file: "text.pdf", opts: Options{DPI: 140, PDFRawImages: true}, format: PDF, pages: 1, w: 240, h: 320, plain: true},
		{file: "p1.djvu", opts: Options{DPI: 100}, format: DJVU, pages: 1, w: 240, h: 320},
		{file: "two.djvu", opts: Options{DPI: 50}, format: DJVU, pages: 2, w: 120, h: 160},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(files[tc.file])
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Open(ctx, data, tc.opts)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer doc.Close()
			if doc.Format() != tc.format || doc.Pages() != tc.pages {
				t.Fatalf("format %s pages %d, want %s %d", doc.Format(), doc.Pages(), tc.format, tc.pages)
			}
			for i := 0; i < doc.Pages(); i++ {
				img, err := doc.Page(ctx, i)
				if err != nil {
					t.Fatalf("page %d: %v", i+1, err)
				}
				sz := img.Bounds().Size()
				if i == 0 && (abs(sz.X-tc.w) > 1 || abs(sz.Y-tc.h) > 1) {
					t.Errorf("page 1 is %v, want %dx%d", sz, tc.w, tc.h)
				}
				if i == 0 && !tc.plain && !redTopLeft(img) {
					t.Errorf("page 1: the red block is not in the top-left corner")
				}
			}
		})
	}
}

// redTopLeft checks the test page's red block is where it was drawn.
func redTopLeft(img image.Image) bool {
	b := img.Bounds()
	r, g, _, _ := img.At(b.Min.X+b.Dx()/12, b.Min.Y+b.Dy()/12).RGBA()
	return r>>8 > 150 && g>>8 < 90
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
