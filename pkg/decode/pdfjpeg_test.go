package decode

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/testutil"
)

// TestPDFUnreadableJPEGDrawnNotPlainly: a PDF page drawing a JPEG no
// decoder here reads (12 bits, lossless, hierarchical) other than as
// stored, so that it is rendered rather than written out, is refused as
// unsupported, as the page showing it plainly is. Before, poppler rendered
// the page without the image (white, or black under an inverting /Decode),
// exited 0 and said nothing, and the blank page was answered 200 as the
// document. A readable JPEG drawn the same ways still renders.
func TestPDFUnreadableJPEGDrawnNotPlainly(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo", "pdftoppm", "qpdf")
	page := greyOf(scanPicture(240, 320))
	j12, lossless := testutil.JPEG12(page), testutil.JPEGLossless(page, 8)
	hier := testutil.JPEGHierarchical(scanPicture(240, 320))
	gray8 := "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode"
	pw, ph := 240*72/300.0, 320*72/300.0
	flipped := fmt.Sprintf("q %.4f 0 0 %.4f 0 %.4f cm /Im0 Do Q", pw, -ph, ph)
	clipped := fmt.Sprintf("q 0 %.4f %.4f %.4f re W n %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", ph/2, pw, ph/2, pw, ph)
	small := fmt.Sprintf("q %.4f 0 0 %.4f 10 10 cm /Im0 Do Q", pw/4, ph/4) // a picture on a page, not a scan
	raw := Options{PDFRawImages: true, AutoPDFRawImages: true}
	tests := []struct {
		name    string
		pdf     scanPDF
		opts    Options
		want    error // nil: the page renders
		encrypt bool  // with an owner password only, as scanners' "protected" files: it opens as any other
	}{
		{"12 bits under an inverting /Decode", scanPDF{data: j12, dict: gray8 + " /Decode [1 0]"}, raw, ErrJPEGPrecision, false},
		{"12 bits flipped", scanPDF{data: j12, dict: gray8, content: flipped}, raw, ErrJPEGPrecision, false},
		{"12 bits clipped", scanPDF{data: j12, dict: gray8, content: clipped}, raw, ErrJPEGPrecision, false},
		{"12 bits, a small picture on the page", scanPDF{data: j12, dict: gray8, content: small}, raw, ErrJPEGPrecision, false},
		{"12 bits shown plainly, raw images off", scanPDF{data: j12, dict: gray8}, Options{}, ErrJPEGPrecision, false},
		{"12 bits Flate-compressed too, flipped", scanPDF{data: flateOf(t, j12),
			dict: "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter [/FlateDecode /DCTDecode]", content: flipped}, raw, ErrJPEGPrecision, false},
		{"12 bits flipped, encrypted with an owner password", scanPDF{data: j12, dict: gray8, content: flipped}, raw, ErrJPEGPrecision, true},
		{"lossless under an inverting /Decode", scanPDF{data: lossless, dict: gray8 + " /Decode [1 0]"}, raw, ErrJPEGLossless, false},
		{"hierarchical under an inverting /Decode", scanPDF{data: hier,
			dict: "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Decode [1 0 1 0 1 0]"}, raw, ErrJPEGHierarchical, false},
		{"8 bits under an inverting /Decode", scanPDF{data: jpegOf(t, page), dict: gray8 + " /Decode [1 0]"}, raw, nil, false},
		{"8 bits flipped, raw images off", scanPDF{data: jpegOf(t, page), dict: gray8, content: flipped}, Options{}, nil, false},
		{"8 bits flipped, encrypted with an owner password", scanPDF{data: jpegOf(t, page), dict: gray8, content: flipped}, raw, nil, true},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.pdf.w, tc.pdf.h = 240, 320
			tc.opts.TempDir = t.TempDir()
			data := tc.pdf.bytes()
			if tc.encrypt {
				data = ownerEncrypted(t, data)
			}
			doc, err := Open(ctx, data, tc.opts)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer doc.Close()
			img, err := doc.Page(ctx, 0)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("page: %v", err)
			case tc.want == nil:
				if d := greySpread(img); d < 128 {
					t.Errorf("page's grey levels span %d: blank, not the scan", d)
				}
			case !errors.Is(err, tc.want) || !errors.Is(err, ErrUnsupported):
				t.Fatalf("error %v (page %v), want one that is %v and ErrUnsupported", err, boundsOf(img), tc.want)
			}
		})
	}
}

// ownerEncrypted is data encrypted by qpdf (AES-256) with an owner
// password only.
func ownerEncrypted(t *testing.T, data []byte) []byte {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.pdf"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, dir, "qpdf", "--encrypt", "", "owner", "256", "--", "in.pdf", "out.pdf")
	out, err := os.ReadFile(filepath.Join(dir, "out.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// greySpread is the difference between the image's darkest and lightest
// grey levels, sampled every fourth pixel each way: 0 on a blank page,
// over 200 on scanPicture (black blocks on white paper) and its negative.
func greySpread(img image.Image) int {
	b := img.Bounds()
	lo, hi := 255, 0
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			r, g, bl, _ := img.At(x, y).RGBA()
			v := int(r+g+bl) / 3 >> 8
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return hi - lo
}

// boundsOf is the image's size, or none.
func boundsOf(img image.Image) string {
	if img == nil {
		return "none"
	}
	return img.Bounds().Size().String()
}
