package main

import (
	"context"
	"image"
	"testing"

	"docsuite/pkg/synth"
)

// TestNeuralFinderCutsWhatTheCropperFinds runs the committed cropnet on a
// factory scene: the documents it finds come back labelled as the scene's
// documents, and none when the least IoU asked for cannot be met.
func TestNeuralFinderCutsWhatTheCropperFinds(t *testing.T) {
	g, err := synth.New(synth.Config{Seed: 11, Size: 1000, MinDocs: 2, MaxDocs: 2, ScanProb: -1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name           string
		minIoU, maxIoU float64
		wantCrops      bool
	}{
		{"every document found", 0.5, 1, true},
		{"none closer than the whole quad", 1.01, 1, false},
		{"only the badly cut ones", 0.5, 0.2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			find, closeFn, err := neuralFinder("models", tc.minIoU, tc.maxIoU)
			if err != nil {
				t.Fatalf("open the committed cropnet: %v", err)
			}
			defer closeFn()
			var types map[string]bool
			spy := func(ctx context.Context, img image.Image, docs []synth.SceneDoc) ([]synth.FoundCut, error) {
				types = map[string]bool{}
				for _, d := range docs {
					types[d.Type] = true
				}
				return find(ctx, img, docs)
			}
			crops, err := g.FoundCrops(context.Background(), 0, 192, spy)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantCrops != (len(crops) > 0) {
				t.Fatalf("%d crops, want some: %v", len(crops), tc.wantCrops)
			}
			for _, c := range crops {
				if !types[c.Type] {
					t.Errorf("crop labelled %s, a type the scene does not hold (%v)", c.Type, types)
				}
			}
		})
	}
}
