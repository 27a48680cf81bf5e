package prob

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	// Reference values from the closed form, computed apart (Python).
	cases := []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775328},
		{5, 10, 0.2365931, 0.7634069},
		{10, 10, 0.7224672, 1},
		{97, 124, 0.7017341, 0.8458191},
		{287, 300, 0.9272825, 0.9745036},
		{0, 0, 0, 1},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n, Z95)
		if math.Abs(lo-c.lo) > 1e-6 || math.Abs(hi-c.hi) > 1e-6 {
			t.Errorf("Wilson(%d, %d) = [%.7f, %.7f], want [%.7f, %.7f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestMcNemar(t *testing.T) {
	cases := []struct {
		b, c int
		want float64
	}{
		{0, 0, 1},
		{3, 3, 1},
		{0, 5, 0.0625},
		{1, 6, 0.125},
		{7, 2, 0.1796875},
		{10, 30, 0.0022214338},
	}
	for _, c := range cases {
		if got := McNemar(c.b, c.c); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("McNemar(%d, %d) = %.10f, want %.10f", c.b, c.c, got, c.want)
		}
	}
}

// meanOf is the share of ones among the items idx picks from v.
func meanOf(v []float64) func(idx []int) float64 {
	return func(idx []int) float64 {
		if len(idx) == 0 {
			return math.NaN()
		}
		s := 0.0
		for _, i := range idx {
			s += v[i]
		}
		return s / float64(len(idx))
	}
}

func TestBootstrapShareAgreesWithWilson(t *testing.T) {
	// 240 of 300 single items right: resampled items, the percentile
	// interval of the share is close to Wilson's.
	v := make([]float64, 300)
	groups := make([][]int, len(v))
	for i := range v {
		if i < 240 {
			v[i] = 1
		}
		groups[i] = []int{i}
	}
	lo, hi := Bootstrap(groups, meanOf(v), 4000, 0.95, 1)
	wlo, whi := Wilson(240, 300, Z95)
	if math.Abs(lo-wlo) > 0.015 || math.Abs(hi-whi) > 0.015 {
		t.Errorf("bootstrap [%.3f, %.3f], Wilson [%.3f, %.3f]", lo, hi, wlo, whi)
	}
	if lo > 0.8 || hi < 0.8 {
		t.Errorf("the interval [%.3f, %.3f] misses the share 0.8", lo, hi)
	}
	// The same seed draws the same resamples.
	lo2, hi2 := Bootstrap(groups, meanOf(v), 4000, 0.95, 1)
	if lo2 != lo || hi2 != hi {
		t.Errorf("seed 1 gave [%v, %v] then [%v, %v]", lo, hi, lo2, hi2)
	}
}

func TestBootstrapGroupsWidenCorrelatedItems(t *testing.T) {
	// 60 files of 5 documents each, all right or all wrong within a file:
	// resampling files must give a wider interval than resampling the 300
	// documents as if independent.
	v := make([]float64, 300)
	files := make([][]int, 60)
	single := make([][]int, 300)
	for f := range files {
		for d := range 5 {
			i := 5*f + d
			files[f] = append(files[f], i)
			single[i] = []int{i}
			if f%5 != 0 {
				v[i] = 1
			}
		}
	}
	flo, fhi := Bootstrap(files, meanOf(v), 3000, 0.95, 7)
	slo, shi := Bootstrap(single, meanOf(v), 3000, 0.95, 7)
	if fhi-flo < 1.5*(shi-slo) {
		t.Errorf("by file [%.3f, %.3f] is not wider than by document [%.3f, %.3f]", flo, fhi, slo, shi)
	}
}

func TestBootstrapEdgeCases(t *testing.T) {
	if lo, hi := Bootstrap(nil, meanOf(nil), 100, 0.95, 1); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("no groups: [%v, %v], want NaN", lo, hi)
	}
	// A statistic that is the same on every resample has a point interval.
	lo, hi := Bootstrap([][]int{{0}, {1}}, func([]int) float64 { return 0.25 }, 50, 0.95, 1)
	if lo != 0.25 || hi != 0.25 {
		t.Errorf("constant statistic: [%v, %v]", lo, hi)
	}
}
