package cvimg

import (
	"image"
	"image/color"
	"image/draw"
	"testing"
)

// testImage draws a colour gradient so that every pixel differs.
func testImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x + y) % 256), 255})
		}
	}
	return img
}

func TestRoundTrip(t *testing.T) {
	src := testImage(67, 41)
	ycc := image.NewYCbCr(src.Bounds(), image.YCbCrSubsampleRatio444)
	for y := 0; y < 41; y++ {
		for x := 0; x < 67; x++ {
			r, g, b, _ := src.At(x, y).RGBA()
			yy, cb, cr := color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(b>>8))
			ycc.Y[ycc.YOffset(x, y)], ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = yy, cb, cr
		}
	}
	nrgba := image.NewNRGBA(src.Bounds())
	draw.Draw(nrgba, nrgba.Bounds(), src, image.Point{}, draw.Src)
	cases := []struct {
		name string
		img  image.Image
		tol  int
	}{
		{"rgba", src, 0},
		{"nrgba", nrgba, 0},
		{"subimage", src.SubImage(image.Rect(5, 7, 60, 40)), 0},
		{"ycbcr444", ycc, 3},
		{"paletted-fallback", toPaletted(src), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := BGR(c.img)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			back, err := ToImage(m)
			if err != nil {
				t.Fatal(err)
			}
			b := c.img.Bounds()
			if back.Bounds().Dx() != b.Dx() || back.Bounds().Dy() != b.Dy() {
				t.Fatalf("size %v, want %v", back.Bounds(), b)
			}
			for y := 0; y < b.Dy(); y++ {
				for x := 0; x < b.Dx(); x++ {
					r1, g1, b1, _ := c.img.At(b.Min.X+x, b.Min.Y+y).RGBA()
					r2, g2, b2, _ := back.At(x, y).RGBA()
					if d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2)); d > c.tol {
						t.Fatalf("pixel %d,%d differs by %d", x, y, d)
					}
				}
			}
		})
	}
}

func TestGrayScaled(t *testing.T) {
	src := testImage(1600, 900)
	m, scale, err := GrayScaled(src, 800)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Cols() != 800 || m.Rows() != 450 || scale != 2 {
		t.Fatalf("got %dx%d scale %v, want 800x450 scale 2", m.Cols(), m.Rows(), scale)
	}
}

func toPaletted(src image.Image) image.Image {
	p := image.NewPaletted(src.Bounds(), nil)
	pal := make(color.Palette, 0, 256)
	for i := 0; i < 256; i++ {
		pal = append(pal, color.RGBA{uint8(i), uint8(i), uint8(i), 255})
	}
	p.Palette = pal
	draw.Draw(p, p.Bounds(), src, src.Bounds().Min, draw.Src)
	return p
}

func absDiff(a, b uint32) int {
	d := int(a>>8) - int(b>>8)
	if d < 0 {
		return -d
	}
	return d
}
