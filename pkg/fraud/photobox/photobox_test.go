package photobox

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"image/jpeg"
	"math/rand"
	"os"
	"testing"
)

// realScan is a 300 dpi scan of a Russian passport spread, when the real
// data is present.
const realScan = "../../../../shared/realdata/SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg"

func TestCascadeLoads(t *testing.T) {
	if _, err := New(""); err != nil {
		t.Fatalf("the Haar face cascade of opencv-data must load: %v", err)
	}
	if _, err := New("/nonexistent/cascade.xml"); err == nil {
		t.Fatal("a missing cascade file must be an error")
	}
}

// TestPortraitNoise finds the portrait of a real passport scan and
// measures it against the page; adding noise to the page but not to the
// portrait (as when a clean picture is pasted into a noisy scan) must
// raise the statistic.
func TestPortraitNoise(t *testing.T) {
	data, err := os.ReadFile(realScan)
	if err != nil {
		t.Skip("no real data: " + err.Error())
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	d, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := d.Check(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 {
		t.Fatalf("want the one portrait, got %+v", ps)
	}
	b := img.Bounds()
	// the portrait lies on the lower page, left third
	if c := ps[0].Face.Min.Add(ps[0].Face.Max).Div(2); c.X > b.Dx()/3 || c.Y < b.Dy()/2 {
		t.Fatalf("portrait at %v, not on the lower page's left", ps[0].Face)
	}
	noisy := image.NewRGBA(b)
	draw.Draw(noisy, b, img, b.Min, draw.Src)
	rng := rand.New(rand.NewSource(1))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if image.Pt(x, y).In(ps[0].Box) {
				continue
			}
			i := noisy.PixOffset(x, y)
			n := rng.NormFloat64() * 10
			for c := 0; c < 3; c++ {
				noisy.Pix[i+c] = uint8(max(0, min(255, float64(noisy.Pix[i+c])+n)))
			}
		}
	}
	ps2, err := d.Check(context.Background(), noisy)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps2) != 1 || ps2[0].Strength < ps[0].Strength+0.5 {
		t.Fatalf("a quiet portrait in a noisy page: %+v, untouched %+v", ps2, ps)
	}
}
