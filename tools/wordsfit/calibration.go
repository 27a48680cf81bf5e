package main

import (
	"math"

	"docsuite/pkg/prob"
)

// calibration gathers the top answers' confidences to measure how well
// they are calibrated, as tools/eval does on the service's answers.
type calibration struct {
	conf  []float64
	right []bool
	loss  float64
}

// add counts one answer of confidence conf, right or not; truth is the
// probability given to the true class.
func (c *calibration) add(conf float64, right bool, truth float64) {
	c.conf = append(c.conf, conf)
	c.right = append(c.right, right)
	c.loss -= math.Log(max(truth, 1e-12))
}

// ece is the expected calibration error over 10 equal bins (prob.ECE), 0
// without answers.
func (c *calibration) ece() float64 {
	if len(c.conf) == 0 {
		return 0
	}
	return prob.ECE(c.conf, c.right, 10)
}

// nll is the mean negative log probability of the true class.
func (c *calibration) nll() float64 {
	if len(c.conf) == 0 {
		return 0
	}
	return c.loss / float64(len(c.conf))
}
