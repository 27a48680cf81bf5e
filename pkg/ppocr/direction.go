package ppocr

import (
	"context"
	"fmt"
	"image"
	"math"
)

// Text-line direction classifier input (PaddleOCR's cls: 3×48×192, the
// line resized to height 48 keeping its aspect, padded right with zeros).
const (
	clsHeight = 48
	clsWidth  = 192
)

var (
	clsMean = [3]float32{0.5, 0.5, 0.5}
	clsStd  = [3]float32{0.5, 0.5, 0.5}
)

// UpsideDown returns the probability that the text line in region r
// (source coordinates) of m is turned half round, by PP-OCR's text-line
// direction classifier.
func (e *Engine) UpsideDown(ctx context.Context, m *Image, r image.Rectangle) (float64, error) {
	r = r.Intersect(m.Bounds()).Sub(m.origin)
	if r.Dx() < 2 || r.Dy() < 2 {
		return 0.5, nil
	}
	w := int(math.Ceil(float64(clsHeight) * float64(r.Dx()) / float64(r.Dy())))
	w = min(max(w, 1), clsWidth)
	line := m.tensor(r, w, clsHeight, clsMean, clsStd)
	x := make([]float32, 3*clsHeight*clsWidth) // zero padding on the right
	for c := 0; c < 3; c++ {
		for y := 0; y < clsHeight; y++ {
			copy(x[(c*clsHeight+y)*clsWidth:][:w], line[(c*clsHeight+y)*w:][:w])
		}
	}
	out, shape, err := e.cls.Run(ctx, x, 1, 3, clsHeight, clsWidth)
	if err != nil {
		return 0, fmt.Errorf("ppocr: direction: %w", err)
	}
	if len(shape) != 2 || shape[1] != 2 {
		return 0, fmt.Errorf("ppocr: direction: output shape %v, want [1 2]", shape)
	}
	return float64(out[1]), nil
}
