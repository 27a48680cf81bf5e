package classify

import (
	"context"
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/synth"
)

// open loads the repository's model or skips when it has not been made.
func open(t *testing.T) *Classifier {
	t.Helper()
	c, err := Open(Options{Dir: "models"})
	if err != nil {
		t.Skipf("model not available (make models): %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// heldOutCrops renders photographed scenes with a seed training never
// used and returns the documents as the cropper would hand them over.
func heldOutCrops(t *testing.T, scenes int) []synth.Crop {
	t.Helper()
	g, err := synth.New(synth.Config{Seed: 424242, Size: 1000, Effects: synth.DefaultEffects()})
	if err != nil {
		t.Fatal(err)
	}
	var out []synth.Crop
	for i := 0; i < scenes; i++ {
		crops, err := g.Crops(context.Background(), i, 256, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, crops...)
	}
	return out
}

// TestAccuracyOnHeldOutSynthetic measures type accuracy on fresh
// synthetic crops; chance is about 1%.
func TestAccuracyOnHeldOutSynthetic(t *testing.T) {
	c := open(t)
	crops := heldOutCrops(t, 60)
	right, rejected := 0, 0
	for _, cr := range crops {
		r, err := c.Classify(context.Background(), cr.Img, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Confidence < 0 || r.Confidence > 1 || len(r.Top) != topN {
			t.Fatalf("reply %+v", r)
		}
		// The answer is the most probable class unless that is a document
		// type below the manifest's threshold, which answers other.
		best := r.Top[0]
		want := best.Type
		if !doctypes.IsSpecial(best.Type) && best.Probability < c.other {
			want = doctypes.Other
			rejected++
		}
		if r.Type != want {
			t.Errorf("answer %s, best %+v, threshold %v: want %s", r.Type, best, c.other, want)
		}
		if r.Type == cr.Type {
			right++
		}
	}
	acc := float64(right) / float64(len(crops))
	t.Logf("type accuracy %.3f on %d held-out synthetic crops (%d below the threshold answered other)", acc, len(crops), rejected)
	if acc < 0.6 {
		t.Errorf("type accuracy %.3f, want at least 0.6", acc)
	}
}

// TestDocTypesRestrictTheAnswer checks a doc_type list keeps the answer
// and the runners-up within the list and the special classes, with
// probabilities renormalised over those candidates.
func TestDocTypesRestrictTheAnswer(t *testing.T) {
	c := open(t)
	crops := heldOutCrops(t, 6)
	for _, allowed := range [][]string{{"passport_main"}, {"passport_main", "snils_front"}} {
		inList := func(ty string) bool { return slices.Contains(allowed, ty) || doctypes.IsSpecial(ty) }
		for _, cr := range crops {
			r, err := c.Classify(context.Background(), cr.Img, allowed)
			if err != nil {
				t.Fatal(err)
			}
			if !inList(r.Type) {
				t.Errorf("%v: answer %s outside the list", allowed, r.Type)
			}
			// Up to topN runners-up, and here every candidate fits in.
			if len(r.Top) != len(allowed)+3 {
				t.Errorf("%v: %d runners-up, want every candidate: %+v", allowed, len(r.Top), r.Top)
			}
			sum := 0.0
			for _, s := range r.Top {
				if !inList(s.Type) {
					t.Errorf("%v: runner-up %s outside the list", allowed, s.Type)
				}
				sum += s.Probability
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("%v: candidate probabilities sum to %.6f, want 1", allowed, sum)
			}
		}
	}
}

// BenchmarkClassify times one crop (preprocessing and the model on one
// thread), as the classifier worker runs it: a factory crop (about 256
// pixels) and a 1200×800 one, the size of a document cut from a photo.
func BenchmarkClassify(b *testing.B) {
	c, err := Open(Options{Dir: "models", Threads: 1})
	if err != nil {
		b.Skipf("model not available (make models): %v", err)
	}
	defer c.Close()
	g, err := synth.New(synth.Config{Seed: 7, Size: 1000, Effects: synth.DefaultEffects()})
	if err != nil {
		b.Fatal(err)
	}
	crops, err := g.Crops(context.Background(), 0, 256, 0.01)
	if err != nil || len(crops) == 0 {
		b.Fatal(err, len(crops))
	}
	small := crops[0].Img
	sb := small.Bounds()
	big := image.NewRGBA(image.Rect(0, 0, 1200, 800))
	for y := 0; y < 800; y++ {
		for x := 0; x < 1200; x++ {
			big.Set(x, y, small.At(sb.Min.X+x*sb.Dx()/1200, sb.Min.Y+y*sb.Dy()/800))
		}
	}
	for _, img := range []image.Image{crops[0].Img, big} {
		b.Run(fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()), func(b *testing.B) {
			for b.Loop() {
				if _, err := c.Classify(context.Background(), img, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
