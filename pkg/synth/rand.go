package synth

import (
	"hash/fnv"
	"math/rand/v2"
)

// Rand is a deterministic random source with the helpers the factory uses.
type Rand struct {
	r *rand.Rand
}

// NewRand derives a generator from a seed and a stream of labels, so that
// independent parts (scene i, document j) get independent sequences.
func NewRand(seed uint64, labels ...uint64) *Rand {
	h := seed*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	for _, l := range labels {
		h ^= l + 0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
		h *= 0xBF58476D1CE4E5B9
	}
	return &Rand{r: rand.New(rand.NewPCG(seed, h))}
}

// Child returns an independent generator for a labelled sub-task.
func (r *Rand) Child(label uint64) *Rand {
	return &Rand{r: rand.New(rand.NewPCG(r.r.Uint64(), label*0x94D049BB133111EB+1))}
}

// hashString maps a name to a stable label.
func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// Float is uniform in [0, 1).
func (r *Rand) Float() float64 { return r.r.Float64() }

// Range is uniform in [a, b).
func (r *Rand) Range(a, b float64) float64 { return a + (b-a)*r.r.Float64() }

// Intn is uniform in [0, n).
func (r *Rand) Intn(n int) int {
	if n <= 1 {
		return 0
	}
	return r.r.IntN(n)
}

// IntRange is uniform in [a, b].
func (r *Rand) IntRange(a, b int) int { return a + r.Intn(b-a+1) }

// Bool is true with probability p.
func (r *Rand) Bool(p float64) bool { return r.r.Float64() < p }

// Norm is standard normal.
func (r *Rand) Norm() float64 { return r.r.NormFloat64() }

// Pick returns a random element.
func Pick[T any](r *Rand, xs []T) T { return xs[r.Intn(len(xs))] }

// Weighted picks an index with the given weights.
func (r *Rand) Weighted(w []float64) int {
	s := 0.0
	for _, x := range w {
		s += x
	}
	t := r.Float() * s
	for i, x := range w {
		if t < x {
			return i
		}
		t -= x
	}
	return len(w) - 1
}

// Digits returns n random decimal digits.
func (r *Rand) Digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.Intn(10))
	}
	return string(b)
}

// clamp limits v to [lo, hi].
func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
