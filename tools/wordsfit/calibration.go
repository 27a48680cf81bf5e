package main

import "math"

// calibration gathers the top answers' confidences to measure how well
// they are calibrated, as tools/eval does on the service's answers.
type calibration struct {
	conf, right [10]float64
	count       [10]int
	loss        float64
	n           int
}

// add counts one answer of confidence c, right or not; truth is the
// probability given to the true class.
func (c *calibration) add(conf float64, right bool, truth float64) {
	b := min(int(conf*10), 9)
	c.conf[b] += conf
	if right {
		c.right[b]++
	}
	c.count[b]++
	c.loss -= math.Log(max(truth, 1e-12))
	c.n++
}

// ece is the expected calibration error over 10 equal bins: the
// answers' share-weighted gap between confidence and accuracy.
func (c *calibration) ece() float64 {
	if c.n == 0 {
		return 0
	}
	var e float64
	for b := range c.count {
		if c.count[b] > 0 {
			e += math.Abs(c.conf[b]-c.right[b]) / float64(c.n)
		}
	}
	return e
}

// nll is the mean negative log probability of the true class.
func (c *calibration) nll() float64 {
	if c.n == 0 {
		return 0
	}
	return c.loss / float64(c.n)
}
