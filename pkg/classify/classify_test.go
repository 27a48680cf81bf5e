package classify

import (
	"context"
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
	right := 0
	for _, cr := range crops {
		r, err := c.Classify(context.Background(), cr.Img, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Confidence < 0 || r.Confidence > 1 || len(r.Top) == 0 {
			t.Fatalf("reply %+v", r)
		}
		if r.Type == cr.Type {
			right++
		}
	}
	acc := float64(right) / float64(len(crops))
	t.Logf("type accuracy %.3f on %d held-out synthetic crops", acc, len(crops))
	if acc < 0.6 {
		t.Errorf("type accuracy %.3f, want at least 0.6", acc)
	}
}

// TestDocTypesRestrictTheAnswer checks a doc_type list keeps the answer
// within the list and the special classes.
func TestDocTypesRestrictTheAnswer(t *testing.T) {
	c := open(t)
	crops := heldOutCrops(t, 6)
	allowed := []string{"passport_main", "snils_front"}
	for _, cr := range crops {
		r, err := c.Classify(context.Background(), cr.Img, allowed)
		if err != nil {
			t.Fatal(err)
		}
		if r.Type != "passport_main" && r.Type != "snils_front" && !doctypes.IsSpecial(r.Type) {
			t.Errorf("answer %s outside the list", r.Type)
		}
		sum := 0.0
		for _, s := range r.Top {
			sum += s.Probability
		}
		if sum > 1.0001 {
			t.Errorf("top probabilities sum to %.4f", sum)
		}
	}
}
