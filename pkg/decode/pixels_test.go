package decode

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/testutil"

	"golang.org/x/image/tiff"
)

// TestPagesComeAsEightBit checks that a page stored at 16 bits, with a
// palette or in CMYK reaches the later stages as the 8-bit RGBA or grey
// image they read without drawing their own copy (a 48-bit scan used to be
// converted again by every stage), with its pixels kept.
func TestPagesComeAsEightBit(t *testing.T) {
	const w, h = 64, 48
	// The page: a colour ramp of 192 colours (a palette holds 256), with a
	// grey twin for the grey forms.
	colour := image.NewRGBA(image.Rect(0, 0, w, h))
	grey := image.NewGray(colour.Rect)
	for y := range h {
		for x := range w {
			colour.SetRGBA(x, y, color.RGBA{R: uint8(4 * x), G: uint8(80 * (y / 16)), B: uint8(255 - 4*x), A: 255})
			grey.SetGray(x, y, color.Gray{Y: uint8(4*x + y)})
		}
	}
	in := func(dst draw.Image, src image.Image) draw.Image {
		draw.Draw(dst, dst.Bounds(), src, image.Point{}, draw.Src)
		return dst
	}
	encode := func(f func(*bytes.Buffer) error) []byte { return encoded(t, f) }
	// Palettes that hold every colour of the page exactly.
	var greys, colours color.Palette
	seen := map[color.Color]bool{}
	for y := range h {
		for x := range w {
			for _, c := range []color.Color{grey.GrayAt(x, y), colour.RGBAAt(x, y)} {
				if seen[c] {
					continue
				}
				seen[c] = true
				if _, ok := c.(color.Gray); ok {
					greys = append(greys, c)
				} else {
					colours = append(colours, c)
				}
			}
		}
	}
	colourPNG := func(p color.Palette) []byte {
		return encode(func(b *bytes.Buffer) error { return png.Encode(b, in(image.NewPaletted(colour.Rect, p), colour)) })
	}
	// CMYK TIFF is written by print workflows; ImageMagick makes one.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.png"), encode(func(b *bytes.Buffer) error { return png.Encode(b, colour) }), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Need(t, "convert")
	testutil.Run(t, dir, "convert", "page.png", "-colorspace", "CMYK", "cmyk.tiff")
	cmyk, err := os.ReadFile(filepath.Join(dir, "cmyk.tiff"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want image.Image // the 8-bit page it must come as, form and pixels
		tol  int
	}{
		{"png 48-bit", encode(func(b *bytes.Buffer) error { return png.Encode(b, in(image.NewRGBA64(colour.Rect), colour)) }), colour, 0},
		{"png 16-bit grey", encode(func(b *bytes.Buffer) error { return png.Encode(b, in(image.NewGray16(grey.Rect), grey)) }), grey, 0},
		{"tiff 48-bit", encode(func(b *bytes.Buffer) error { return tiff.Encode(b, in(image.NewRGBA64(colour.Rect), colour), nil) }), colour, 0},
		{"tiff 16-bit grey", encode(func(b *bytes.Buffer) error { return tiff.Encode(b, in(image.NewGray16(grey.Rect), grey), nil) }), grey, 0},
		{"png grey palette", encode(func(b *bytes.Buffer) error { return png.Encode(b, in(image.NewPaletted(grey.Rect, greys), grey)) }), grey, 0},
		{"png colour palette", colourPNG(colours), colour, 0},
		{"gif", encode(func(b *bytes.Buffer) error { return gif.Encode(b, in(image.NewPaletted(grey.Rect, greys), grey), nil) }), grey, 0},
		// ImageMagick's CMYK conversion rounds each ink to 8 bits.
		{"tiff cmyk", cmyk, colour, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img := firstPage(t, tc.data)
			switch tc.want.(type) {
			case *image.Gray:
				if _, ok := img.(*image.Gray); !ok {
					t.Fatalf("page is %T, want *image.Gray", img)
				}
			default:
				if _, ok := img.(*image.RGBA); !ok {
					t.Fatalf("page is %T, want *image.RGBA", img)
				}
			}
			for y := range h {
				for x := range w {
					r0, g0, b0, _ := tc.want.At(x, y).RGBA()
					r, g, b, a := img.At(x, y).RGBA()
					if a != 0xffff || abs(int(r>>8)-int(r0>>8)) > tc.tol || abs(int(g>>8)-int(g0>>8)) > tc.tol || abs(int(b>>8)-int(b0>>8)) > tc.tol {
						t.Fatalf("pixel (%d, %d) is %v, want %v", x, y, img.At(x, y), tc.want.At(x, y))
					}
				}
			}
		})
	}
}
