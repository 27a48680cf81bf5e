package synth

import "docsuite/pkg/geom"

// ringOf returns a quad's corners in drawing order as plain pairs.
func ringOf(q geom.Quad) [][2]float64 {
	r := q.Ring()
	out := make([][2]float64, 4)
	for i, p := range r {
		out[i] = [2]float64{p.X, p.Y}
	}
	return out
}
