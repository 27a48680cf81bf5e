package cropsvc

import (
	"context"
	"errors"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// TestPixelLimitNamesTheDPIThatFits checks the 422 of a page over
// MAX_PIXELS: where the dpi parameter decides the page's size (a PDF page
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
