package crop

import (
	"image"
	"testing"
)

// TestZoomWindow checks when the cropper takes a second, closer look: only
// when all the interior the first look saw lies in a part of the page
// small enough to be seen ZoomMin times larger, and then at that part
// with its margin, in page pixels.
func TestZoomWindow(t *testing.T) {
	const size = 64
	// A 1280 x 960 page letterboxed to 64 x 48: 20 page pixels a network
	// pixel.
	lb := letterboxed{w: 64, h: 48}
	page := image.Rect(0, 0, 1280, 960)
	blob := func(x0, y0, x1, y1 int) []float32 {
		m := make([]float32, size*size)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				m[y*size+x] = 0.9
			}
		}
		return m
	}
	o := NeuralOptions{}.withDefaults()
	cases := []struct {
		name     string
		interior []float32
		want     image.Rectangle
		zoom     bool
	}{
		{"nothing seen", blob(0, 0, 0, 0), image.Rectangle{}, false},
		// 10 x 6 px of cards: a margin of 1 px (10 %) and 2 px more; 16 x 12
		// px is seen 4 times larger.
		{"small cards", blob(20, 10, 30, 16), image.Rect(17*20, 7*20, 33*20, 19*20), true},
		// 50 x 40 px: the part with its margin is 60 px wide, barely
		// larger seen alone.
		{"a large document", blob(5, 4, 55, 44), image.Rectangle{}, false},
		// 30 x 22 px: the part with its margin (5 px) is 40 px wide, seen
		// 1.6 times larger alone, under ZoomMin 2: at the network's 320
		// pixels such a look found no more documents than the first.
		{"a part seen 1.6 times larger", blob(10, 8, 40, 30), image.Rectangle{}, false},
		// Near the frame the window stops at the page's edge (8 x 6 px:
		// a margin of 2.8 px).
		{"a card in the corner", blob(0, 0, 8, 6), image.Rect(0, 0, 216, 176), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, zoom := zoomWindow(c.interior, size, lb, page, o)
			if zoom != c.zoom || got != c.want {
				t.Fatalf("window %v (zoom %v), want %v (zoom %v)", got, zoom, c.want, c.zoom)
			}
		})
	}
	if _, zoom := zoomWindow(blob(20, 10, 30, 16), size, lb, page, NeuralOptions{ZoomMin: -1}.withDefaults()); zoom {
		t.Fatal("ZoomMin -1 still zooms")
	}
	// A 40 x 30 page is upscaled into the letterbox: a speck of interior
	// there is a pixel or two of the page, not worth a look.
	if r, zoom := zoomWindow(blob(20, 10, 22, 12), size, letterboxed{w: 64, h: 48}, image.Rect(0, 0, 40, 30), o); zoom {
		t.Fatalf("a speck of a small page zoomed to %v", r)
	}
}
