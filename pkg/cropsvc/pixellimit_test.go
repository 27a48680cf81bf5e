package cropsvc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// TestPixelLimitNamesTheDPIThatFits checks the 422 of a page over
// MAX_PIXELS, and of a file over MAX_FILE_PIXELS: where the dpi parameter decides the page's size (a PDF page
// rendered, a DJVU page) its message names the dpi at which the page fits,
// so the client can send the file again; an image's does not, no dpi
// changing its pixels.
func TestPixelLimitNamesTheDPIThatFits(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want string // in the message; "" none of "dpi="
	}{
		{"pdf page of 200 inches at dpi 300", testutil.HugePagePDF(14400), "at dpi 300; dpi=49 or lower fits"},
		{"png of 30000 x 30000", testutil.PNGBomb(30000, 30000), ""},
		{"pdf of 100 pages of 100 MP at dpi 300", testutil.PDFPages(100, 2400, 2400),
			"File's 100 pages have 10000000000 pixels together; the limit is 1000000000 (MAX_FILE_PIXELS) at dpi 300; dpi=94 or lower fits"},
		{"tiff of 100 pages of 100 MP", testutil.TIFFPages(100, 10000, 10000),
			"File's 100 pages have 10000000000 pixels together; the limit is 1000000000 (MAX_FILE_PIXELS)"},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := decode.Open(ctx, tc.data, decode.Options{TempDir: t.TempDir()})
			if err == nil {
				_, err = doc.Page(ctx, 0)
				_ = doc.Close()
			}
			var ae *apierr.Error
			if !errors.As(DecodeError(err), &ae) || ae.Code != apierr.TooManyPixels {
				t.Fatalf("got %v, want too_many_pixels", err)
			}
			if tc.want == "" && strings.Contains(ae.Message, "dpi=") || !strings.Contains(ae.Message, tc.want) {
				t.Errorf("message %q, want %q in it", ae.Message, tc.want)
			}
		})
	}
}

// TestRenderTimeSaysSo checks the 422 of a page whose rendering ran past
// the renderer's time limit: corrupt_file, its message naming the page,
// the limit and the dpi, and that a lower dpi renders faster.
func TestRenderTimeSaysSo(t *testing.T) {
	err := fmt.Errorf("cropper: %w", &decode.RenderTimeError{Format: decode.PDF, Page: 2, DPI: 300, Limit: time.Minute,
		Cause: errors.New("pdftoppm: stopped at its time limit (1m0s)")})
	var ae *apierr.Error
	if !errors.As(DecodeError(err), &ae) || ae.Code != apierr.CorruptFile {
		t.Fatalf("got %v, want corrupt_file", DecodeError(err))
	}
	want := "Page 3 did not render within 60 s at dpi 300 (the renderer's time limit): its drawing is too complex to render here; a lower dpi renders faster"
	if ae.Message != want {
		t.Errorf("message %q, want %q", ae.Message, want)
	}
}
