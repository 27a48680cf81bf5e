package orient

import (
	"context"
	"image"
	"image/color"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
	"docsuite/pkg/synth"
)

// TestCompose checks compose against turning a real image twice.
func TestCompose(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 5, 3))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	for a := geom.Rotation(0); a < geom.NumRotations; a++ {
		for b := geom.Rotation(0); b < geom.NumRotations; b++ {
			ab, err := cvimg.Turn(img, a)
			if err != nil {
				t.Fatal(err)
			}
			if ab, err = cvimg.Turn(ab, b); err != nil {
				t.Fatal(err)
			}
			once, err := cvimg.Turn(img, compose(a, b))
			if err != nil {
				t.Fatal(err)
			}
			if !same(ab, once) {
				t.Errorf("compose(%d, %d) = %d does not equal turning by %d then %d", a, b, compose(a, b), a, b)
			}
		}
	}
}

// TestTurnRect checks that a rectangle follows its pixels through a
// quarter turn.
func TestTurnRect(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 9, 6))
	r := image.Rect(2, 1, 7, 3)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.Set(x, y, color.RGBA{255, 255, 255, 255})
		}
	}
	turned, err := cvimg.Turn(img, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr := turnRect(r, 6)
	b := turned.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			white := turned.At(x, y).(color.RGBA).R == 255
			if white != image.Pt(x, y).In(tr) {
				t.Fatalf("pixel (%d,%d) white=%v, rect %v", x, y, white, tr)
			}
		}
	}
}

func same(a, b image.Image) bool {
	if a.Bounds().Size() != b.Bounds().Size() {
		return false
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			if a.At(ab.Min.X+x, ab.Min.Y+y) != b.At(bb.Min.X+x, bb.Min.Y+y) {
				return false
			}
		}
	}
	return true
}

// BenchmarkOrient times the orienter on one thread as the worker runs it:
// docnet and the text lines of a document crop cut from a factory photo
// at 900 pixels (its text legible, as in a phone photo).
func BenchmarkOrient(b *testing.B) {
	o, err := Open(Options{Dir: "models", Threads: 1})
	if err != nil {
		b.Skipf("model not available (make models): %v", err)
	}
	defer o.Close()
	g, err := synth.New(synth.Config{Seed: 7, Size: 1600, Effects: synth.DefaultEffects()})
	if err != nil {
		b.Fatal(err)
	}
	var img image.Image
	for i := 0; img == nil; i++ {
		crops, err := g.Crops(context.Background(), i, 900, 0.01)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range crops {
			if !doctypes.IsSpecial(c.Type) {
				img = c.Img
				break
			}
		}
	}
	b.Logf("crop %v", img.Bounds().Size())
	for b.Loop() {
		if _, _, err := o.Orient(context.Background(), img); err != nil {
			b.Fatal(err)
		}
	}
}
