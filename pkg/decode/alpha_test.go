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

// transparentPage is a 64 × 48 page whose paper is fully transparent
// (stored as transparent black, as ImageMagick writes a PDF converted to
// PNG), with an opaque black ink block at (8..24, 8..24) and a half
// transparent red block at (40..56, 8..24).
func transparentPage() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	for y := 8; y < 24; y++ {
		for x := 8; x < 24; x++ {
			img.SetNRGBA(x, y, color.NRGBA{A: 255})
		}
		for x := 40; x < 56; x++ {
			img.SetNRGBA(x, y, color.NRGBA{R: 255, A: 128})
		}
	}
	return img
}

// TestTransparentPaperIsWhite checks that every format able to carry alpha
// gives its transparent paper as white, as a viewer shows it, not as the
// black the models would read as a blank page.
func TestTransparentPaperIsWhite(t *testing.T) {
	page := transparentPage()
	encode := func(f func(*bytes.Buffer) error) []byte { return encoded(t, f) }
	// redrawn is the page drawn into dst, which keeps it in its own form.
	redrawn := func(dst draw.Image) draw.Image {
		for y := 0; y < 48; y++ {
			for x := 0; x < 64; x++ {
				dst.Set(x, y, page.NRGBAAt(x, y))
			}
		}
		return dst
	}
	// The paletted form keeps one colour per block: transparent, black,
	// and the half transparent red. TIFF stores a premultiplied page as
	// associated alpha and decodes it as RGBA and RGBA64.
	paletted := redrawn(image.NewPaletted(page.Rect, color.Palette{color.NRGBA{}, color.NRGBA{A: 255}, color.NRGBA{R: 255, A: 128}}))
	wide := redrawn(image.NewNRGBA64(page.Rect))
	pre := redrawn(image.NewRGBA(page.Rect))
	pre64 := redrawn(image.NewRGBA64(page.Rect))
	// GIF has one fully transparent index only: its red block is opaque.
	gifPage := image.NewPaletted(page.Rect, color.Palette{color.RGBA{}, color.RGBA{A: 255}, color.RGBA{R: 255, A: 255}})
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			if c := page.NRGBAAt(x, y); c.A != 0 {
				gifPage.Set(x, y, color.RGBA{R: c.R, A: 255})
			}
		}
	}
	pngData := encode(func(b *bytes.Buffer) error { return png.Encode(b, page) })
	// Grey with alpha and HEIC with alpha are written by the tools users'
	// files come from.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.png"), pngData, 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Need(t, "convert", "heif-enc")
	testutil.Run(t, dir, "convert", "page.png", "-colorspace", "gray", "-define", "png:color-type=4", "grey.png")
	testutil.Run(t, dir, "heif-enc", "-L", "-o", "page.heic", "page.png")
	written := func(file string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	halfRed := [3]int{255, 127, 127}
	tests := []struct {
		name string
		data []byte
		half [3]int // the half transparent red block laid on white
	}{
		{"png rgba", pngData, halfRed},
		{"png 16-bit rgba", encode(func(b *bytes.Buffer) error { return png.Encode(b, wide) }), halfRed},
		{"png palette with tRNS", encode(func(b *bytes.Buffer) error { return png.Encode(b, paletted) }), halfRed},
		{"tiff rgba", encode(func(b *bytes.Buffer) error { return tiff.Encode(b, page, nil) }), halfRed},
		{"tiff premultiplied rgba", encode(func(b *bytes.Buffer) error { return tiff.Encode(b, pre, nil) }), halfRed},
		{"tiff premultiplied 16-bit rgba", encode(func(b *bytes.Buffer) error { return tiff.Encode(b, pre64, nil) }), halfRed},
		{"gif transparent index", encode(func(b *bytes.Buffer) error { return gif.Encode(b, gifPage, nil) }), [3]int{255, 0, 0}},
		// ImageMagick's grey of pure red is 54 (Rec. 709 luma), half on white 155.
		{"png grey+alpha", written("grey.png"), [3]int{155, 155, 155}},
		{"heic with alpha", written("page.heic"), halfRed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img := firstPage(t, tc.data)
			at := func(x, y int) [4]int {
				r, g, b, a := img.At(x, y).RGBA()
				return [4]int{int(r >> 8), int(g >> 8), int(b >> 8), int(a >> 8)}
			}
			near := func(got [4]int, want [4]int, tol int) bool {
				for i := range got {
					if abs(got[i]-want[i]) > tol {
						return false
					}
				}
				return true
			}
			if got := at(2, 40); !near(got, [4]int{255, 255, 255, 255}, 2) {
				t.Errorf("transparent paper is %v, want white", got)
			}
			if got := at(16, 16); !near(got, [4]int{0, 0, 0, 255}, 2) {
				t.Errorf("ink is %v, want opaque black", got)
			}
			want := [4]int{tc.half[0], tc.half[1], tc.half[2], 255}
			if got := at(48, 16); !near(got, want, 4) {
				t.Errorf("half transparent red is %v, want %v", got, want)
			}
		})
	}
}
