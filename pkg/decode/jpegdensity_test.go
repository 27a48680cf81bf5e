package decode

import (
	"bytes"
	"testing"
)

// TestJPEGDensityNotApplied: a JPEG whose JFIF header gives pixels not
// square (72 × 144 dpi, or an aspect ratio of 1:2 with no unit) comes out
// at its pixel grid, as browsers and image viewers show it
// (docs/formats.md, Pixels not square); a TIFF fax is resampled instead.
func TestJPEGDensityNotApplied(t *testing.T) {
	plain := jpegOf(t, scanPicture(120, 160))
	jfif := func(unit byte, x, y uint16) []byte {
		app0 := []byte{0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 2, unit, byte(x >> 8), byte(x), byte(y >> 8), byte(y), 0, 0}
		return append(append(append([]byte{}, plain[:2]...), app0...), plain[2:]...)
	}
	tests := []struct {
		name string
		data []byte
	}{
		{"72 x 144 dpi", jfif(1, 72, 144)},
		{"204 x 98 dots a centimetre", jfif(2, 204, 98)},
		{"aspect ratio 1:2, no unit", jfif(0, 1, 2)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(tc.data, []byte("JFIF\x00")) {
				t.Fatal("no JFIF header")
			}
			img := firstPageWith(t, tc.data, Options{TempDir: t.TempDir()})
			if s := img.Bounds().Size(); s.X != 120 || s.Y != 160 {
				t.Errorf("page %v, want the stored 120x160", s)
			}
		})
	}
}
