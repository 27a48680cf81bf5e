package main

import (
	"math"
	"testing"
)

func TestIoU(t *testing.T) {
	sq := func(x0, y0, x1, y1 float64) [4]pt { return [4]pt{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} }
	tests := []struct {
		name string
		a, b [4]pt
		want float64
	}{
		{"same", sq(0, 0, 10, 10), sq(0, 0, 10, 10), 1},
		{"half overlap", sq(0, 0, 10, 10), sq(5, 0, 15, 10), 50.0 / 150},
		{"disjoint", sq(0, 0, 10, 10), sq(20, 20, 30, 30), 0},
		{"corner order does not matter", sq(0, 0, 10, 10), [4]pt{{10, 10}, {0, 10}, {10, 0}, {0, 0}}, 1},
	}
	for _, tc := range tests {
		if got := iou(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %v want %v", tc.name, got, tc.want)
		}
	}
}
