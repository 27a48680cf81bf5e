package cropsvc

import (
	"image"
	"strings"
	"testing"

	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// A lossless or hierarchical JPEG answers 422 unsupported_format naming
// what it is and what to send. Before, it answered corrupt_file ("File
// cannot be decoded", detail "unsupported JPEG feature: unknown marker"),
// and a lossless one of 16 bits was said to be a JPEG of 12 bits.
func TestJPEGModesSaySo(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 240, 320))
	for i := range g.Pix {
		g.Pix[i] = uint8(200 + i%40)
	}
	tests := []struct {
		name string
		data []byte
		says string
	}{
		{"lossless, 8 bits", testutil.JPEGLossless(g, 8), "Lossless JPEG"},
		{"lossless, 16 bits", testutil.JPEGLossless(g, 16), "Lossless JPEG"},
		{"hierarchical", testutil.JPEGHierarchical(g), "Hierarchical JPEG"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ae := unsupportedAnswer(t, tc.data, decode.Options{TempDir: t.TempDir()})
			if m := ae.Message; !strings.HasPrefix(m, tc.says) || !strings.Contains(m, "baseline JPEG") {
				t.Errorf("message %q does not say %q and to send a baseline JPEG", m, tc.says)
			}
		})
	}
}
