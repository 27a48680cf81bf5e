package geom

import (
	"math"
	"testing"
)

// rect is the axis-aligned quad of x0..x1 by y0..y1 in API corner order.
func rect(x0, y0, x1, y1 float64) Quad {
	return Quad{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}}
}

func TestOverlapAndIoU(t *testing.T) {
	diamond := Quad{{X: 50, Y: 0}, {X: 100, Y: 50}, {X: 0, Y: 50}, {X: 50, Y: 100}} // a square turned 45 degrees
	cases := []struct {
		name    string
		a, b    Quad
		overlap float64
		iou     float64
	}{
		{"the same square", rect(0, 0, 10, 10), rect(0, 0, 10, 10), 100, 1},
		{"apart", rect(0, 0, 10, 10), rect(20, 0, 30, 10), 0, 0},
		{"touching along a side", rect(0, 0, 10, 10), rect(10, 0, 20, 10), 0, 0},
		{"half over", rect(0, 0, 10, 10), rect(5, 0, 15, 10), 50, 50.0 / 150},
		{"one inside the other", rect(0, 0, 100, 100), rect(10, 10, 30, 20), 200, 200.0 / 10000},
		{"corners given mirrored", rect(0, 0, 10, 10), Quad{{X: 15, Y: 0}, {X: 5, Y: 0}, {X: 15, Y: 10}, {X: 5, Y: 10}}, 50, 50.0 / 150},
		{"a turned square in its bounding box", diamond, rect(0, 0, 100, 100), 5000, 0.5},
		{"empty", Quad{}, Quad{}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, ab := range [][2]Quad{{c.a, c.b}, {c.b, c.a}} {
				if got := Overlap(ab[0], ab[1]); math.Abs(got-c.overlap) > 1e-9 {
					t.Errorf("Overlap = %v, want %v", got, c.overlap)
				}
				if got := IoU(ab[0], ab[1]); math.Abs(got-c.iou) > 1e-9 {
					t.Errorf("IoU = %v, want %v", got, c.iou)
				}
			}
		})
	}
}
