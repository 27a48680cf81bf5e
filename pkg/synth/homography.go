package synth

import (
	"fmt"
	"math"

	"docsuite/pkg/geom"
)

// mul3 multiplies 3x3 row-major matrices.
func mul3(a, b [9]float64) [9]float64 {
	var c [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				c[3*i+j] += a[3*i+k] * b[3*k+j]
			}
		}
	}
	return c
}

// apply maps a point through a homography.
func apply(h [9]float64, x, y float64) (float64, float64) {
	w := h[6]*x + h[7]*y + h[8]
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
}

// homography returns H with H(src[i]) = dst[i] for four point pairs.
func homography(src, dst [4][2]float64) ([9]float64, error) {
	var a [8][9]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i][0], src[i][1], dst[i][0], dst[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for c := 0; c < 8; c++ {
		p := c
		for r := c + 1; r < 8; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return [9]float64{}, fmt.Errorf("synth: degenerate homography")
		}
		a[c], a[p] = a[p], a[c]
		for r := 0; r < 8; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k < 9; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	var h [9]float64
	for i := 0; i < 8; i++ {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	return h, nil
}

// quadOf maps the corners of a w x h upright document through h.
func quadOf(h [9]float64, w, hh float64) geom.Quad {
	var q geom.Quad
	for i, c := range [4][2]float64{{0, 0}, {w, 0}, {0, hh}, {w, hh}} {
		x, y := apply(h, c[0], c[1])
		q[i] = geom.Point{X: x, Y: y}
	}
	return q
}
