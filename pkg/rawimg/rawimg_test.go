package rawimg

import (
	"errors"
	"image"
	"image/color"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 7, 3))
	rgba.Set(2, 1, color.RGBA{10, 20, 30, 255})
	g := image.NewGray(image.Rect(0, 0, 5, 4))
	g.SetGray(4, 3, color.Gray{200})
	sub := rgba.SubImage(image.Rect(1, 1, 4, 3)) // stride differs from width
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	nrgba.Set(1, 1, color.NRGBA{1, 2, 3, 255})
	tests := []struct {
		name string
		img  image.Image
		x, y int
	}{
		{"rgba", rgba, 2, 1}, {"gray", g, 4, 3}, {"sub-image", sub, 1, 0}, {"converted", nrgba, 1, 1},
	}
	for _, tc := range tests {
		out, err := Decode(Encode(tc.img))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b := tc.img.Bounds()
		if out.Bounds().Dx() != b.Dx() || out.Bounds().Dy() != b.Dy() {
			t.Errorf("%s: size %v", tc.name, out.Bounds())
		}
		r1, g1, b1, _ := tc.img.At(b.Min.X+tc.x, b.Min.Y+tc.y).RGBA()
		r2, g2, b2, _ := out.At(tc.x, tc.y).RGBA()
		if r1 != r2 || g1 != g2 || b1 != b2 {
			t.Errorf("%s: pixel differs", tc.name)
		}
	}
}

func TestRejectsGarbage(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("RIMG"), append([]byte("RIMG\x05\x00\x00\x00\x05\x00\x00\x00\x04\x00\x00\x00"), 1, 2, 3)} {
		if _, err := Decode(data); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: %v", data, err)
		}
	}
}
