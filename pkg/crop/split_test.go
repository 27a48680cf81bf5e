package crop

import (
	"math"
	"testing"

	"docsuite/pkg/geom"
)

// TestSegmentSplitsLeaks checks that a document whose interior leaks out
// through a thin bridge (a finger on a card, two cards whose outlines
// miss where they touch) is eroded apart from the leak.
func TestSegmentSplitsLeaks(t *testing.T) {
	const size = 256
	cases := []struct {
		name string
		docs []geom.Quad
		// leak paints extra interior without an outline.
		leak   func(x, y int) bool
		minIoU float64
	}{
		{name: "finger on a card", docs: []geom.Quad{rotRect(150, 150, 120, 76, 5)},
			leak: func(x, y int) bool { return x > 20 && x < 110 && y > 140 && y < 146 }, minIoU: 0.93},
		{name: "two cards joined by a bridge", docs: []geom.Quad{rotRect(65, 100, 90, 60, -10), rotRect(195, 150, 90, 60, 20)},
			leak: func(x, y int) bool { return x >= 100 && x <= 160 && y > 118 && y < 123 }, minIoU: 0.93},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, tc.docs)
			for y := range size {
				for x := range size {
					if tc.leak(x, y) {
						in[y*size+x], bd[y*size+x] = 1, 0
					}
				}
			}
			got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
			if len(got) != len(tc.docs) {
				t.Fatalf("found %d documents, want %d: %v", len(got), len(tc.docs), got)
			}
			for _, d := range tc.docs {
				best := 0.0
				for _, g := range got {
					best = math.Max(best, IoU(d, g.quad))
				}
				if best < tc.minIoU {
					t.Errorf("document %v: best IoU %.3f < %.2f", d, best, tc.minIoU)
				}
			}
		})
	}
}
