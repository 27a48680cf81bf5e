package main

import (
	"math"
	"testing"
)

// TestCalibration checks the calibration error and log loss against
// sums worked by hand.
func TestCalibration(t *testing.T) {
	type answer struct {
		conf  float64
		right bool
		truth float64
	}
	tests := []struct {
		name     string
		answers  []answer
		ece, nll float64
	}{
		{"none", nil, 0, 0},
		{"sure and right", []answer{{1, true, 1}, {1, true, 1}}, 0, 0},
		// Bin 0.9: 0.95 said, 1 of 2 right: 0.45 off, all the answers.
		{"overconfident", []answer{{0.95, true, 0.95}, {0.95, false, 0.05}}, 0.45, (-math.Log(0.95) - math.Log(0.05)) / 2},
		// Bin 0.6: 0.6 said, 2 of 2 right (0.4 off, half the answers);
		// bin 0.9: 0.9 said, 2 of 2 right (0.1 off, half).
		{"underconfident", []answer{{0.6, true, 0.6}, {0.6, true, 0.6}, {0.9, true, 0.9}, {0.9, true, 0.9}}, 0.25, (-2*math.Log(0.6) - 2*math.Log(0.9)) / 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var c calibration
			for _, a := range tc.answers {
				c.add(a.conf, a.right, a.truth)
			}
			if got := c.ece(); math.Abs(got-tc.ece) > 1e-9 {
				t.Errorf("ece %g, want %g", got, tc.ece)
			}
			if got := c.nll(); math.Abs(got-tc.nll) > 1e-9 {
				t.Errorf("nll %g, want %g", got, tc.nll)
			}
		})
	}
}
