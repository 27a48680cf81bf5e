package cvimg

import (
	"image"
	"image/color"
	"testing"

	"docsuite/pkg/geom"
)

// TestTurnTurnsAndMirrors checks the eight codes against a marked
// image: code r moves the top-left marker where mirror-then-turn puts it.
func TestTurnTurnsAndMirrors(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			img.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	// Marker corner after the code: 0 TL, 1 TR, 2 BR, 3 BL; mirrored: 4 TR, 5 BR, 6 BL, 7 TL.
	corner := map[geom.Rotation][2]bool{0: {false, false}, 1: {true, false}, 2: {true, true}, 3: {false, true},
		4: {true, false}, 5: {true, true}, 6: {false, true}, 7: {false, false}}
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		out, err := Turn(img, r)
		if err != nil {
			t.Fatal(err)
		}
		b := out.Bounds()
		if (r.Turns()%2 == 1) != (b.Dx() == 40) {
			t.Errorf("code %d: size %v", r, b.Size())
		}
		x, y := 3, 3
		if corner[r][0] {
			x = b.Dx() - 4
		}
		if corner[r][1] {
			y = b.Dy() - 4
		}
		if c := color.RGBAModel.Convert(out.At(x, y)).(color.RGBA); c.R < 200 || c.G > 60 {
			t.Errorf("code %d: no marker at (%d,%d)", r, x, y)
		}
	}
}
