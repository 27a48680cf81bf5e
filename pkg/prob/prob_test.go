package prob

import (
	"math"
	"testing"
)

func TestSoftmax(t *testing.T) {
	cases := []struct {
		name string
		in   []float64
		want []float64
	}{
		{name: "equal scores", in: []float64{3, 3, 3, 3}, want: []float64{0.25, 0.25, 0.25, 0.25}},
		{name: "log of probabilities", in: []float64{math.Log(0.2), math.Log(0.3), math.Log(0.5)}, want: []float64{0.2, 0.3, 0.5}},
		{name: "shifted by a constant", in: []float64{1000 + math.Log(0.2), 1000 + math.Log(0.8)}, want: []float64{0.2, 0.8}},
		{name: "one score", in: []float64{-7}, want: []float64{1}},
		{name: "a score of minus infinity", in: []float64{math.Inf(-1), 0}, want: []float64{0, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]float64(nil), tc.in...)
			logs := LogSoftmax(in)
			got := Softmax(in)
			for i := range tc.want {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Fatalf("Softmax(%v) = %v, want %v", tc.in, got, tc.want)
				}
				if math.Abs(math.Exp(logs[i])-tc.want[i]) > 1e-12 {
					t.Fatalf("LogSoftmax(%v) = %v, want the logs of %v", tc.in, logs, tc.want)
				}
			}
		})
	}
}

// TestECE checks the calibration error against sums worked by hand.
func TestECE(t *testing.T) {
	tests := []struct {
		name  string
		conf  []float64
		right []bool
		want  float64
	}{
		{"sure and right", []float64{1, 1}, []bool{true, true}, 0},
		// One bin: 0.95 said, 1 of 2 right.
		{"overconfident", []float64{0.95, 0.95}, []bool{true, false}, 0.45},
		// Bin 0.6: 0.4 off, half the answers; bin 0.9: 0.1 off, half.
		{"underconfident", []float64{0.6, 0.6, 0.9, 0.9}, []bool{true, true, true, true}, 0.25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ECE(tc.conf, tc.right, 10); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("ECE %g, want %g", got, tc.want)
			}
		})
	}
	if !math.IsNaN(ECE(nil, nil, 10)) {
		t.Error("ECE of no answers is not NaN")
	}
}

// TestBrier checks the Brier score against sums worked by hand.
func TestBrier(t *testing.T) {
	tests := []struct {
		name  string
		conf  []float64
		right []bool
		want  float64
	}{
		{"sure and right", []float64{1, 1}, []bool{true, true}, 0},
		{"sure and wrong", []float64{1}, []bool{false}, 1},
		// (0.1² + 0.9²) / 2: a bin-wise calibrated pair still scores.
		{"half right at 0.9", []float64{0.9, 0.9}, []bool{true, false}, 0.41},
		{"underconfident", []float64{0.6, 0.8}, []bool{true, true}, (0.16 + 0.04) / 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Brier(tc.conf, tc.right); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("Brier %g, want %g", got, tc.want)
			}
		})
	}
	if !math.IsNaN(Brier(nil, nil)) {
		t.Error("Brier of no answers is not NaN")
	}
}
