package decode

import (
	"bytes"
	"context"
	"errors"
	"image/jpeg"
	"testing"

	"docsuite/pkg/testutil"
)

// TestJPEGModesRefused: a lossless or hierarchical JPEG, which neither
// Go's decoder nor libjpeg-turbo 2.1 (OpenCV's, poppler's) reads, is
// refused as unsupported, saying which, alone or as a PDF's scan. Before,
// the file alone was corrupt ("unsupported JPEG feature: unknown marker"),
// and a lossless one of 16 bits was said to be "of 12 bits".
func TestJPEGModesRefused(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo", "pdftoppm", "qpdf")
	page := greyOf(scanPicture(240, 320))
	lossless := testutil.JPEGLossless(page, 8)
	gray8 := "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode"
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"lossless, 8 bits", lossless, ErrJPEGLossless},
		{"lossless, 16 bits (as medical imaging writes)", testutil.JPEGLossless(page, 16), ErrJPEGLossless},
		{"lossless, 12 bits", testutil.JPEGLossless(page, 12), ErrJPEGLossless},
		{"hierarchical", testutil.JPEGHierarchical(scanPicture(240, 320)), ErrJPEGHierarchical},
		{"PDF scan of a lossless JPEG", scanPDF{w: 240, h: 320, data: lossless, dict: gray8}.bytes(), ErrJPEGLossless},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if f, _ := Sniff(tc.data); f == JPEG {
				// Refused because no decoder here reads it: when one does,
				// read such files instead.
				if _, err := jpeg.Decode(bytes.NewReader(tc.data)); err == nil {
					t.Error("Go's image/jpeg reads it")
				}
				if _, err := decodeOpenCV(tc.data); err == nil {
					t.Error("OpenCV reads it")
				}
			}
			doc, err := Open(ctx, tc.data, Options{PDFRawImages: true, AutoPDFRawImages: true, TempDir: t.TempDir()})
			if err == nil {
				defer doc.Close()
				_, err = doc.Page(ctx, 0)
			}
			if !errors.Is(err, tc.want) || !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %v, want one that is %v and ErrUnsupported", err, tc.want)
			}
			t.Log(err)
		})
	}
}
