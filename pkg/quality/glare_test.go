package quality

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// page draws a w × h luma page: paper of the given level with dark text
// lines, then each shape in turn.
func page(w, h int, paper uint8, shapes ...func(x, y int) (uint8, bool)) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := paper
			if y%16 < 3 && x%40 < 30 {
				v = 30 // text
			}
			for _, s := range shapes {
				if c, ok := s(x, y); ok {
					v = c
				}
			}
			img.SetGray(x, y, color.Gray{Y: v})
		}
	}
	return img
}

// disc is a white ellipse centred at (cx, cy) with radii rx, ry, in
// fractions of the page.
func disc(w, h int, cx, cy, rx, ry float64) func(x, y int) (uint8, bool) {
	return func(x, y int) (uint8, bool) {
		dx := (float64(x)/float64(w) - cx) / rx
		dy := (float64(y)/float64(h) - cy) / ry
		return 255, dx*dx+dy*dy < 1
	}
}

// band is white where in(x, y) holds.
func band(in func(x, y int) bool) func(x, y int) (uint8, bool) {
	return func(x, y int) (uint8, bool) { return 255, in(x, y) }
}

// TestGlareRules checks what counts as glare on drawn pages: a bright spot
// over a grey document does, as does one that spills into a white margin;
// white margins, thin white rules and white paper do not.
func TestGlareRules(t *testing.T) {
	const w, h = 800, 600
	margin := band(func(x, y int) bool { return x < 80 || x >= w-80 || y < 60 || y >= h-60 })
	tests := []struct {
		name    string
		img     image.Image
		atLeast float64 // glare score bounds
		atMost  float64
	}{
		{"grey paper", page(w, h, 200), 0, 0},
		{"grey paper, spot over a fifth", page(w, h, 200, disc(w, h, 0.5, 0.5, 0.25, 0.25)), 0.6, 1},
		{"grey paper, small spot", page(w, h, 200, disc(w, h, 0.5, 0.5, 0.08, 0.08)), 0, 0.2},
		{"grey paper in a white margin", page(w, h, 200, margin), 0, 0},
		{"grey paper in a white margin, spot spilling into it", page(w, h, 200, margin, disc(w, h, 0.75, 0.5, 0.22, 0.25)), 0.4, 1},
		{"grey paper under a white band 2 tiles deep, dark marks in it", page(w, h, 200,
			band(func(x, y int) bool { return y < 74 && !((x%550 >= 100 && x%550 < 140) && y > 20) })), 0, 0},
		{"grey paper with white rules 20 px wide", page(w, h, 200, band(func(x, y int) bool { return y%150 < 20 || x%200 < 20 })), 0, 0},
		{"white paper", page(w, h, 255), 0, 0},
		{"white paper, spot", page(w, h, 255, disc(w, h, 0.5, 0.5, 0.25, 0.25)), 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, m, err := grayOf(tc.img)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			g := glare(p)
			if g < tc.atLeast || g > tc.atMost || math.IsNaN(g) {
				t.Errorf("glare %.3f, want %.2f..%.2f", g, tc.atLeast, tc.atMost)
			}
		})
	}
}
