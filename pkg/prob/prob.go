// Package prob turns scores into probability distributions: the softmax
// and its logarithm, computed stably (the largest score subtracted first).
package prob

import "math"

// Softmax turns log-probabilities z, known up to a constant, into
// probabilities, in place, and returns z. An empty z is returned as it is.
func Softmax(z []float64) []float64 {
	top := math.Inf(-1)
	for _, v := range z {
		top = max(top, v)
	}
	sum := 0.0
	for i := range z {
		z[i] = math.Exp(z[i] - top)
		sum += z[i]
	}
	for i := range z {
		z[i] /= sum
	}
	return z
}

// LogSoftmax returns the log-probabilities of z, known up to a constant,
// normalised so their exponentials sum to one (z is left as it is).
func LogSoftmax(z []float64) []float64 {
	top := math.Inf(-1)
	for _, v := range z {
		top = max(top, v)
	}
	sum := 0.0
	for _, v := range z {
		sum += math.Exp(v - top)
	}
	norm := top + math.Log(sum)
	out := make([]float64, len(z))
	for i, v := range z {
		out[i] = v - norm
	}
	return out
}
