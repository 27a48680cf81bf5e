package crop

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// TestShrinkYCbCrMatchesRGB checks the plane-by-plane shrink of JPEG pages
// gives the colours of shrinking the page converted to RGB first.
func TestShrinkYCbCrMatchesRGB(t *testing.T) {
	page := background(1203, 801, texWood, rand.New(rand.NewPCG(1, 2)))
	draw.Draw(page, image.Rect(300, 200, 700, 500), image.NewUniform(image.White), image.Point{}, draw.Src)
	draw.Draw(page, image.Rect(350, 250, 500, 300), image.NewUniform(image.Black), image.Point{}, draw.Src)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, page, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	yc, ok := img.(*image.YCbCr)
	if !ok {
		t.Fatalf("decoded %T, want *image.YCbCr", img)
	}
	rgba := image.NewRGBA(yc.Bounds())
	draw.Draw(rgba, rgba.Bounds(), yc, image.Point{}, draw.Src)
	const w, h = 256, 170
	got, err := shrinkRGB(yc, w, h, gocv.InterpolationArea)
	if err != nil {
		t.Fatal(err)
	}
	want, err := shrinkRGB(rgba, w, h, gocv.InterpolationArea)
	if err != nil {
		t.Fatal(err)
	}
	worst, sum := 0.0, 0.0
	for i := range got {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		worst = math.Max(worst, d)
		sum += d
	}
	// Chroma is averaged before instead of after upsampling: equal up to
	// rounding inside flat areas, a few levels along colour edges.
	if mean := sum / float64(len(got)); mean > 1.5 || worst > 40 {
		t.Errorf("plane-wise shrink differs from RGB shrink: mean %.2f, worst %.0f levels", mean, worst)
	}
}
