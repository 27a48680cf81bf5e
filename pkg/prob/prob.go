// Package prob turns scores into probability distributions: the softmax
// and its logarithm, computed stably (the largest score subtracted first);
// measures how well confidences are calibrated (ECE, Brier); and says how
// far a measure on a few hundred documents can be trusted (Wilson and
// bootstrap intervals, McNemar's test of two models on the same items).
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

// ECE is the expected calibration error of answers given with confidence
// conf[i], right[i] telling whether each was: over bins equal bins of
// confidence, the answers' share of each bin times the gap between its
// mean confidence and its accuracy. NaN when there are no answers.
func ECE(conf []float64, right []bool, bins int) float64 {
	if len(conf) == 0 {
		return math.NaN()
	}
	n := make([]int, bins)
	sum := make([]float64, bins)
	hits := make([]float64, bins)
	for i, c := range conf {
		b := min(int(c*float64(bins)), bins-1)
		n[b]++
		sum[b] += c
		if right[i] {
			hits[b]++
		}
	}
	e := 0.0
	for b := range n {
		if n[b] > 0 {
			e += math.Abs(hits[b]-sum[b]) / float64(len(conf))
		}
	}
	return e
}

// Brier is the Brier score of answers given with confidence conf[i],
// right[i] telling whether each was: the mean squared gap between the
// confidence and 1 (right) or 0 (wrong). Unlike ECE it is a proper score,
// with no bins: an answer made more confident gains when right and loses
// when wrong, whatever the other answers near it. NaN when there are no
// answers.
func Brier(conf []float64, right []bool) float64 {
	if len(conf) == 0 {
		return math.NaN()
	}
	s := 0.0
	for i, c := range conf {
		y := 0.0
		if right[i] {
			y = 1
		}
		s += (c - y) * (c - y)
	}
	return s / float64(len(conf))
}
