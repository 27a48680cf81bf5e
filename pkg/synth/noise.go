package synth

import "math"

// hash2 is a fast integer hash of a lattice point.
func hash2(x, y int, seed uint32) float64 {
	h := uint32(x)*374761393 + uint32(y)*668265263 + seed*2246822519
	h = (h ^ (h >> 13)) * 1274126177
	h ^= h >> 16
	return float64(h&0xffff) / 65535
}

// valueNoise is smooth lattice noise in [0, 1].
func valueNoise(x, y float64, seed uint32) float64 {
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
	ix, iy := int(x0), int(y0)
	a := hash2(ix, iy, seed)
	b := hash2(ix+1, iy, seed)
	c := hash2(ix, iy+1, seed)
	d := hash2(ix+1, iy+1, seed)
	return a + (b-a)*fx + (c-a)*fy + (a-b-c+d)*fx*fy
}

// fbm sums octaves of value noise.
func fbm(x, y float64, seed uint32, oct int) float64 {
	s, amp, norm := 0.0, 1.0, 0.0
	for o := 0; o < oct; o++ {
		s += amp * valueNoise(x, y, seed+uint32(o))
		norm += amp
		x, y, amp = x*2.03, y*2.03, amp*0.5
	}
	return s / norm
}
