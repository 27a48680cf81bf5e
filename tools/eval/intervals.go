package main

import (
	"fmt"
	"math"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/prob"
)

// The report's 95 % intervals: shares by Wilson's score interval, the
// calibration measures and the mean IoU by resampling whole files
// (bootstrapReps times, seed bootstrapSeed, so a report made twice from
// the same answers is the same).
const (
	bootstrapReps = 2000
	bootstrapSeed = 1
)

// intervalNote explains the report's interval column.
const intervalNote = "95 % intervals: shares by Wilson's score interval (documents counted as independent); " +
	"ECE, Brier score and mean IoU by resampling whole files 2,000 times (the documents of one file share its " +
	"background and camera). An interval says how far the figure could move on another draw of as many documents."

// shareInterval formats the 95 % Wilson interval of k in n as percents.
func shareInterval(k, n int) string {
	if n == 0 {
		return ""
	}
	lo, hi := prob.Wilson(k, n, prob.Z95)
	return fmt.Sprintf("%.1f to %.1f %%", 100*lo, 100*hi)
}

// groupByFile groups the indices 0..n-1 that keep selects by their file,
// in order of first appearance: the units Bootstrap resamples.
func groupByFile(n int, file func(i int) string, keep func(i int) bool) [][]int {
	at := map[string]int{}
	var groups [][]int
	for i := range n {
		if !keep(i) {
			continue
		}
		g, ok := at[file(i)]
		if !ok {
			g = len(groups)
			at[file(i)] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// fileInterval formats the 95 % interval, resampling files, of stat over
// the pairs keep selects, with digits decimals; n/a when they lie in fewer
// than two files (nothing to resample).
func fileInterval(pairs []pair, keep func(pair) bool, stat func(idx []int) float64, digits int) string {
	return groupInterval(groupByFile(len(pairs), func(i int) string { return pairs[i].File }, func(i int) bool { return keep(pairs[i]) }),
		stat, digits)
}

// groupInterval formats the 95 % interval of stat over groups resampled,
// with digits decimals; n/a with fewer than two groups.
func groupInterval(groups [][]int, stat func(idx []int) float64, digits int) string {
	if len(groups) < 2 {
		return "n/a"
	}
	lo, hi := prob.Bootstrap(groups, stat, bootstrapReps, 0.95, bootstrapSeed)
	if math.IsNaN(lo) {
		return "n/a"
	}
	return fmt.Sprintf("%.*f to %.*f", digits, lo, digits, hi)
}

// typed selects the pairs whose truth is a catalogue class: those the type
// measures count.
func typed(p pair) bool { return doctypes.Known(p.Truth) }

// calibrationAt returns a statistic of the type answers an index list
// picks: measure (ece10 or prob.Brier) over their confidences conf(i) and
// rightness right(i).
func calibrationAt(measure func(conf []float64, right []bool) float64, conf func(i int) float64, right func(i int) bool) func(idx []int) float64 {
	return func(idx []int) float64 {
		c := make([]float64, 0, len(idx))
		r := make([]bool, 0, len(idx))
		for _, i := range idx {
			c = append(c, conf(i))
			r = append(r, right(i))
		}
		return measure(c, r)
	}
}

// calibrationOf is calibrationAt over the report's pairs.
func calibrationOf(pairs []pair, measure func(conf []float64, right []bool) float64) func(idx []int) float64 {
	return calibrationAt(measure, func(i int) float64 { return pairs[i].Conf }, func(i int) bool { return pairs[i].Pred == pairs[i].Truth })
}

// ece10 is the expected calibration error over 10 bins, as the report
// gives it.
func ece10(conf []float64, right []bool) float64 { return prob.ECE(conf, right, 10) }

// meanAt returns the mean of v(i) over the indices an index list picks
// (NaN for none).
func meanAt(v func(i int) float64) func(idx []int) float64 {
	return func(idx []int) float64 {
		if len(idx) == 0 {
			return math.NaN()
		}
		s := 0.0
		for _, i := range idx {
			s += v(i)
		}
		return s / float64(len(idx))
	}
}

// meanIoU returns the mean IoU of the pairs an index list picks.
func meanIoU(pairs []pair) func(idx []int) float64 {
	return meanAt(func(i int) float64 { return pairs[i].IoU })
}
