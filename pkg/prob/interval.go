package prob

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Z95 is the standard normal quantile of a two-sided 95 % interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval of a share of k successes in n
// trials at the normal quantile z (Z95 for 95 %). Unlike the normal
// approximation it stays inside [0, 1] and is not empty at k = 0 or
// k = n, which matters for the small counts of a per-class table or of
// the real files. With no trials it is [0, 1]: nothing is known.
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

// Bootstrap returns the percentile interval, covering the share level
// (0.95 for 95 %), of stat over reps resamples of groups: each resample
// draws len(groups) groups with replacement and hands stat the indices of
// their members, in draw order. Resampling whole groups (the documents of
// one file, which share its background and camera) rather than single
// items keeps their correlation, so the interval is not narrower than the
// data allow. Resamples where stat is NaN are skipped. The draws follow
// seed, so a report made twice from the same answers is the same.
func Bootstrap(groups [][]int, stat func(idx []int) float64, reps int, level float64, seed uint64) (lo, hi float64) {
	if len(groups) == 0 || reps <= 0 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	vals := make([]float64, 0, reps)
	var idx []int
	for range reps {
		idx = idx[:0]
		for range groups {
			idx = append(idx, groups[rng.IntN(len(groups))]...)
		}
		if v := stat(idx); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return math.NaN(), math.NaN()
	}
	sort.Float64s(vals)
	tail := (1 - level) / 2
	return quantile(vals, tail), quantile(vals, 1-tail)
}

// quantile is the q-quantile of sorted v, interpolated linearly between
// neighbouring values.
func quantile(v []float64, q float64) float64 {
	pos := q * float64(len(v)-1)
	i := int(math.Floor(pos))
	if i >= len(v)-1 {
		return v[len(v)-1]
	}
	f := pos - float64(i)
	return v[i]*(1-f) + v[i+1]*f
}

// McNemar returns the exact two-sided p-value of McNemar's test for two
// classifiers answering the same items: b items only the first got
// right, c only the second. Under the hypothesis that both are equally
// accurate each disagreement is a fair coin, so the p-value is twice the
// binomial tail of the rarer side (at most 1). With no disagreements it
// is 1.
func McNemar(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	// Sum C(n, i) / 2^n for i <= k in logs: n may be in the hundreds.
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}

// logChoose is log C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
