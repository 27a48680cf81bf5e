package crop

import (
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
				best := bestIoU(d, got)
				if best < tc.minIoU {
					t.Errorf("document %v: best IoU %.3f < %.2f", d, best, tc.minIoU)
				}
			}
		})
	}
}

// TestSegmentCutsFaintOutlines checks that two documents of one colour,
// overlapping or edge to edge, whose dividing outline the network sees
// only faintly, are cut apart along it, while a document crossed by a
// fainter line (a fold, a printed rule) stays whole.
func TestSegmentCutsFaintOutlines(t *testing.T) {
	const size = 256
	cases := []struct {
		name string
		docs []geom.Quad
		// faint is the outline probability left where the top document's
		// outline crosses the interior of the ones below (or, with one
		// document, along a line across it).
		faint float32
		want  int
	}{
		{name: "certificates stacked, outline at 0.35", docs: []geom.Quad{rotRect(100, 85, 100, 140, -6), rotRect(125, 180, 100, 140, 8)}, faint: 0.35, want: 2},
		{name: "cards overlapping, outline at 0.3", docs: []geom.Quad{rotRect(85, 120, 100, 64, -12), rotRect(170, 140, 100, 64, 15)}, faint: 0.3, want: 2},
		{name: "one page with a faint rule", docs: []geom.Quad{rotRect(128, 128, 150, 200, 2)}, faint: 0.2, want: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, tc.docs)
			if len(tc.docs) == 1 {
				for x := 60; x < 200; x++ {
					for y := 120; y < 123; y++ {
						bd[y*size+x] = tc.faint
					}
				}
			} else {
				// Where the top document's outline lies inside the one
				// below, the network sees it only faintly.
				below := tc.docs[0].Ring()
				for y := range size {
					for x := range size {
						p := geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
						if bd[y*size+x] > 0 && insideConvex(p, below[:]) && distToRing(p, below[:]) > 2 {
							bd[y*size+x] = tc.faint
						}
					}
				}
			}
			got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
			if len(got) != tc.want {
				t.Fatalf("found %d documents, want %d: %v", len(got), tc.want, got)
			}
			for _, d := range tc.docs {
				best := bestIoU(d, got)
				// The part of a lower document hidden under the upper one
				// is only partly restored from its visible part's hull.
				if best < 0.85 {
					t.Errorf("document %v: best IoU %.3f < 0.85", d, best)
				}
			}
		})
	}
}
