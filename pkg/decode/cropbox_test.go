package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"testing"

	"docsuite/pkg/testutil"
)

// boxedPDF is a one-page PDF whose page has the media box media and the
// crop box crop (points), turned by rotate, with a black bar drawn across
// the media box's bottom edge, outside the crop box when that is lifted
// off the bottom.
func boxedPDF(media, crop [4]int, rotate int) []byte {
	content := "0 0 0 rg 0 0 14400 36 re f"
	b := testutil.PDF("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [%d %d %d %d] /CropBox [%d %d %d %d] /Rotate %d /Contents 4 0 R >>",
			media[0], media[1], media[2], media[3], crop[0], crop[1], crop[2], crop[3], rotate),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
	}, "")
	return append(b, bytes.Repeat([]byte("%padding\n"), 120)...)
}

// TestPDFPageIsItsCropBox: a PDF page is rendered as a viewer shows it,
// its crop box, whose size is the one pdfinfo reports and the pixel limit
// is checked on. pdftoppm's own default is the media box: a 200-inch media
// box under a letter crop box passed the limit as a letter page and came
// back as a 1×1 picture (poppler refuses the 60000×60000 bitmap, writes a
// pixel and exits 0), answered 200 "empty"; a smaller media box came back
// at the media box's size, with what the crop box hides. A page poppler
// cannot render (its bitmap over what poppler allocates, under a raised
// MAX_PIXELS and MAX_FILE_PIXELS) is an ErrCorrupt, not the 1×1 picture
// poppler writes (w 0).
func TestPDFPageIsItsCropBox(t *testing.T) {
	tests := []struct {
		name      string
		data      []byte
		maxPixels int64
		w, h      int
		// clean: the bar lies outside the crop box, so no pixel of the
		// page may be dark.
		clean bool
	}{
		{"media box of 200 inches, letter crop box", boxedPDF([4]int{0, 0, 14400, 14400}, [4]int{0, 0, 612, 792}, 0), 0, 2550, 3300, false},
		{"letter media box, crop box lifted off its bottom", boxedPDF([4]int{0, 0, 612, 792}, [4]int{0, 72, 306, 468}, 0), 0, 1275, 1650, true},
		{"the same turned a quarter", boxedPDF([4]int{0, 0, 612, 792}, [4]int{0, 72, 306, 468}, 90), 0, 1650, 1275, true},
		{"no crop box: the media box", boxedPDF([4]int{0, 0, 612, 792}, [4]int{0, 0, 612, 792}, 0), 0, 2550, 3300, false},
		{"a /Rotate of 45 turns nothing", boxedPDF([4]int{0, 0, 612, 792}, [4]int{0, 0, 612, 792}, 45), 0, 2550, 3300, false},
		{"200-inch crop box under a limit of 4 gigapixels", boxedPDF([4]int{0, 0, 14400, 14400}, [4]int{0, 0, 14400, 14400}, 0), 4e9, 0, 0, false},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(ctx, tc.data, Options{PDFRawImages: true, AutoPDFRawImages: true, MaxPixels: tc.maxPixels, MaxFilePixels: tc.maxPixels})
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			img, err := doc.Page(ctx, 0)
			if tc.w == 0 {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("page %v, error %v; want ErrCorrupt", bounds(img), err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
				t.Fatalf("page of %dx%d pixels, want the crop box's %dx%d", b.Dx(), b.Dy(), tc.w, tc.h)
			}
			if !tc.clean {
				return
			}
			b := img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y += 7 {
				for x := b.Min.X; x < b.Max.X; x += 7 {
					if r, _, _, _ := img.At(x, y).RGBA(); r>>8 < 128 {
						t.Fatalf("dark pixel at (%d, %d): content outside the crop box was rendered", x, y)
					}
				}
			}
		})
	}
}

// bounds is an image's bounds for a message, nil for no image.
func bounds(img image.Image) any {
	if img == nil {
		return nil
	}
	return img.Bounds()
}
