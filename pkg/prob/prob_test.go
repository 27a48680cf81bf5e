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
