package crop

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"docsuite/pkg/geom"
)

// TestRefineTakesTheDocumentsOuterEdge checks where refine puts a quad the
// network found a couple of pixels inside a document whose edge is one of
// two parallel ones (a passport's pages inside its darker cover, a
// certificate's printed border band at the paper's edge), and that a lone
// edge stays where it is beside a noisy background or a soft shadow.
func TestRefineTakesTheDocumentsOuterEdge(t *testing.T) {
	const w, h, angle, scale = 640, 480, 5.0, 5.0
	outer := rotRect(320, 240, 400, 280, angle)
	inner := rotRect(320, 240, 380, 260, angle) // 10 px inside
	or, ir := outer.Ring(), inner.Ring()
	in := func(r [4]geom.Point, x, y int) bool {
		return insideConvex(geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}, r[:])
	}
	// distOut is how far (x, y) lies outside the outer rectangle's edge
	// (in its own frame; negative inside).
	sn, cs := math.Sincos(-angle * math.Pi / 180)
	distOut := func(x, y int) float64 {
		dx, dy := float64(x)+0.5-320, float64(y)+0.5-240
		u, v := dx*cs-dy*sn, dx*sn+dy*cs
		return math.Max(math.Abs(u)-200, math.Abs(v)-140)
	}
	// banded is a page inside a band (a cover's rim, a printed border)
	// on a table.
	banded := func(page, band, table float64) func(x, y int) float64 {
		return func(x, y int) float64 {
			switch {
			case in(ir, x, y):
				return page
			case in(or, x, y):
				return band
			}
			return table
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name string
		lum  func(x, y int) float64
	}{
		{"pages inside a dark cover on a grey table", banded(220, 40, 120)},
		{"printed border band at the paper's edge", banded(225, 140, 180)},
		{"paper on a noisy dark background", func(x, y int) float64 {
			if in(or, x, y) {
				return 220
			}
			return 100 + 50*rng.Float64() - 25
		}},
		{"paper with a soft shadow around it", func(x, y int) float64 {
			if d := distOut(x, y); d <= 0 {
				return 200
			} else if d < 8 {
				return 90 + 60*d/8
			}
			return 150
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			img := image.NewGray(image.Rect(0, 0, w, h))
			for y := range h {
				for x := range w {
					img.Pix[y*img.Stride+x] = uint8(math.Max(0, math.Min(255, tc.lum(x, y))))
				}
			}
			// The network's quad: the outer rectangle 2 px inside.
			found := rotRect(320, 240, 396, 276, angle)
			got := refine(lumaOf(img), found, scale, w, h)
			if v := geom.IoU(got, outer); v < 0.99 {
				t.Errorf("IoU with the document %.4f, want >= 0.99 (inner rectangle %.4f); quad %v", v, geom.IoU(got, inner), got)
			}
		})
	}
}
