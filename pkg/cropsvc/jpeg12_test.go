package cropsvc

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// A JPEG of 12 bits a sample, alone or as a PDF's scanned page, answers
// 422 unsupported_format saying what it is and what to send: it was
// corrupt_file ("File cannot be decoded", detail "unsupported JPEG
// feature: precision"), and the PDF a blank page answered 200; so was a
// PDF drawing it otherwise than as stored (here through an inverting
// /Decode), which poppler renders, until the same change as the plain one.
func TestJPEG12SaysSo(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo", "pdftoppm", "qpdf")
	g := image.NewGray(image.Rect(0, 0, 240, 320))
	for i := range g.Pix {
		g.Pix[i] = uint8(200 + i%40)
	}
	j12 := testutil.JPEG12(g)
	content := "q 57.6 0 0 76.8 0 0 cm /Im0 Do Q"
	pdf := func(dict string) []byte {
		return testutil.PDF("1.5", []string{
			"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 57.6 76.8] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>",
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
			fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width 240 /Height 320 /ColorSpace /DeviceGray /BitsPerComponent 8 "+
				"/Filter /DCTDecode %s /Length %d >>\nstream\n%s\nendstream", dict, len(j12), j12),
		}, "")
	}
	for name, data := range map[string][]byte{"JPEG": j12, "PDF": pdf(""), "PDF drawn inverted": pdf("/Decode [1 0]")} {
		t.Run(name, func(t *testing.T) {
			ae := unsupportedAnswer(t, data, decode.Options{PDFRawImages: true, AutoPDFRawImages: true, TempDir: t.TempDir()})
			if m := ae.Message; !strings.Contains(m, "12 bits") || !strings.Contains(m, "8-bit") {
				t.Errorf("message %q does not say the JPEG is of 12 bits and to send an 8-bit one", m)
			}
		})
	}
}

// unsupportedAnswer opens data with opts, decodes its first page and
// returns the catalogue error DecodeError makes of the failure, which must
// be unsupported_format.
func unsupportedAnswer(t *testing.T, data []byte, opts decode.Options) *apierr.Error {
	t.Helper()
	ctx := context.Background()
	doc, err := decode.Open(ctx, data, opts)
	if err == nil {
		defer doc.Close()
		_, err = doc.Page(ctx, 0)
	}
	var ae *apierr.Error
	if !errors.As(DecodeError(err), &ae) {
		t.Fatalf("not a catalogue error: %v", err)
	}
	if ae.Code != apierr.UnsupportedFormat {
		t.Errorf("errno of %v, want unsupported_format", ae.Code)
	}
	return ae
}
