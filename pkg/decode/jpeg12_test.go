package decode

import (
	"context"
	"errors"
	"testing"

	"docsuite/pkg/testutil"
)

// TestJPEGOf12Bits: a JPEG of 12 bits a sample, which neither Go's decoder
// nor libjpeg-turbo (OpenCV's, poppler's) reads, is refused as unsupported,
// saying so. Before, the file alone answered corrupt ("unsupported JPEG
// feature: precision"), and a PDF scan of one came out a blank page
// (poppler renders nothing for it), answered as if it were the document.
func TestJPEGOf12Bits(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo", "pdftoppm", "qpdf")
	page := greyOf(scanPicture(240, 320))
	j12 := testutil.JPEG12(page)
	tests := []struct {
		name string
		data []byte
	}{
		{"JPEG file", j12},
		{"PDF scan, its dictionary saying 8 bits", scanPDF{w: 240, h: 320, data: j12,
			dict: "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode"}.bytes()},
		{"PDF scan, its dictionary saying 12 bits", scanPDF{w: 240, h: 320, data: j12,
			dict: "/ColorSpace /DeviceGray /BitsPerComponent 12 /Filter /DCTDecode"}.bytes()},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(ctx, tc.data, Options{PDFRawImages: true, AutoPDFRawImages: true, TempDir: t.TempDir()})
			if err == nil {
				defer doc.Close()
				_, err = doc.Page(ctx, 0)
			}
			if !errors.Is(err, ErrJPEGPrecision) || !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v, want one that is ErrJPEGPrecision and ErrUnsupported", err)
			}
			t.Log(err)
		})
	}
}
