package main

import (
	"context"
	"fmt"
	"image"

	"docsuite/pkg/crop"
	"docsuite/pkg/geom"
	"docsuite/pkg/synth"
)

// neuralFinder opens the neural cropper of a models folder (one ONNX
// Runtime thread; the workers run scenes in parallel) and returns a
// synth.Finder that keeps each document it finds whose quad overlaps a
// scene document's with IoU at least minIoU, matched to the one it
// overlaps most and ordered like it (synth.OrderLike), unless that IoU is
// above maxIoU (to gather only the documents the cropper cuts badly).
// Pieces and junk below minIoU are left out: their label would be a guess.
func neuralFinder(modelsDir string, minIoU, maxIoU float64) (synth.Finder, func() error, error) {
	nn, err := crop.OpenNeural(crop.NeuralConfig{Dir: modelsDir, Threads: 1})
	if err != nil {
		return nil, nil, fmt.Errorf("-found-by: %w", err)
	}
	find := func(ctx context.Context, img image.Image, docs []synth.SceneDoc) ([]synth.FoundCut, error) {
		found, err := nn.Find(ctx, img)
		if err != nil {
			return nil, err
		}
		var cuts []synth.FoundCut
		for _, f := range found {
			best, bestIoU := -1, minIoU
			for j, d := range docs {
				if v := geom.IoU(f.Quad, d.Lying); v >= bestIoU {
					best, bestIoU = j, v
				}
			}
			if best >= 0 && bestIoU <= maxIoU {
				cuts = append(cuts, synth.FoundCut{Doc: best, Quad: synth.OrderLike(f.Quad, docs[best].Lying)})
			}
		}
		return cuts, nil
	}
	return find, nn.Close, nil
}
