package extract_test

import (
	"context"
	"image"
	"slices"
	"testing"

	"docsuite/pkg/extract"
	"docsuite/pkg/mrz"
	"docsuite/pkg/ocr"
	"docsuite/pkg/synth"
	"docsuite/pkg/testutil"
)

// newExtractor loads the real models (PP-OCRv4 through ONNX Runtime,
// Tesseract rus); the test is skipped when they are not installed.
func newExtractor(t testing.TB) *extract.Extractor {
	t.Helper()
	e := testutil.PPOCR(t)
	o, err := ocr.New(1, "rus")
	if err != nil {
		t.Skipf("Tesseract rus not available: %v", err)
	}
	t.Cleanup(o.Close)
	x, err := extract.New(mrz.NewReader(e), o)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// sample is one synthetic passport: its upright crop and the values the
// factory printed.
type sample struct {
	typ    string
	img    image.Image
	fields map[string]string
}

// condition is how the factory's passports are shot.
type condition struct {
	name string
	// fx multiplies every effect's default strength (light, blur, noise,
	// perspective, occlusion, JPEG, ...); scan is the share of flat
	// scanner-style scenes.
	fx, scan float64
}

// Conditions of the evaluation: flat scans with mild effects, and the
// factory's default mix of photos.
var (
	scans  = condition{name: "scans (flat, effects x0.3)", fx: 0.3, scan: 1}
	photos = condition{name: "photos (default effects)", fx: 1, scan: 0.15}
)

// synthPassports renders n passport_main spreads under condition c and
// cuts each out as the cropper would, turned upright.
func synthPassports(t testing.TB, c condition, seed uint64, n int) []sample {
	t.Helper()
	return synthCrops(t, c, seed, n, "passport_main")
}

// synthCrops renders n documents of the given types under condition c and
// cuts each out as the cropper would, turned upright.
func synthCrops(t testing.TB, c condition, seed uint64, n int, types ...string) []sample {
	t.Helper()
	fx := synth.DefaultEffects().Scaled(c.fx)
	g, err := synth.New(synth.Config{Seed: seed, Types: types, MinDocs: 1, MaxDocs: 1, Effects: fx, ScanProb: c.scan})
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for i := 0; len(out) < n; i++ {
		crops, err := g.Crops(context.Background(), i, 1600, 0.005)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range crops {
			if !slices.Contains(types, c.Type) {
				continue
			}
			up, err := synth.Upright(c.Img, c.Rotation)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sample{typ: c.Type, img: up, fields: c.Fields})
		}
	}
	return out[:n]
}
