package extract

import (
	"image"
	"image/color"
	"image/draw"
	"testing"
)

// TestPageBoundsTrimsOnlyACover checks that the pages are found inside a
// dark cover margin, and that nothing is trimmed from crops without one:
// a dark photo on the page, a page shot dim all over, a dark band running
// far into the crop.
func TestPageBoundsTrimsOnlyACover(t *testing.T) {
	page := color.RGBA{236, 222, 226, 255}
	cover := color.RGBA{38, 22, 30, 255}
	mk := func(w, h int, margins [4]int, extra func(*image.RGBA)) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Rect, image.NewUniform(cover), image.Point{}, draw.Src)
		in := image.Rect(margins[0], margins[1], w-margins[2], h-margins[3])
		draw.Draw(img, in, image.NewUniform(page), image.Point{}, draw.Src)
		for y := in.Min.Y + 10; y < in.Max.Y-10; y += 14 { // text lines
			draw.Draw(img, image.Rect(in.Min.X+w/3, y, in.Max.X-20, y+3), image.NewUniform(color.RGBA{30, 30, 40, 255}), image.Point{}, draw.Src)
		}
		if extra != nil {
			extra(img)
		}
		return img
	}
	fill := func(r image.Rectangle, c color.RGBA) func(*image.RGBA) {
		return func(img *image.RGBA) { draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src) }
	}
	for _, tc := range []struct {
		name string
		img  *image.RGBA
		want image.Rectangle
	}{
		{"cover on every side", mk(780, 560, [4]int{22, 30, 9, 35}, nil), image.Rect(22, 30, 771, 525)},
		{"table showing beyond the cover", mk(780, 560, [4]int{24, 30, 20, 30}, func(img *image.RGBA) {
			grey := image.NewUniform(color.RGBA{138, 138, 138, 255})
			draw.Draw(img, image.Rect(0, 0, 3, 560), grey, image.Point{}, draw.Src)
			draw.Draw(img, image.Rect(777, 0, 780, 560), grey, image.Point{}, draw.Src)
		}), image.Rect(24, 30, 760, 530)},
		{"cover on two sides", mk(780, 560, [4]int{0, 25, 40, 0}, nil), image.Rect(0, 25, 740, 560)},
		{"no cover", mk(780, 560, [4]int{}, nil), image.Rect(0, 0, 780, 560)},
		{"dark photo at the page's edge", mk(780, 560, [4]int{}, fill(image.Rect(0, 80, 200, 330), color.RGBA{20, 20, 25, 255})), image.Rect(0, 0, 780, 560)},
		{"page shot dim", mk(780, 560, [4]int{}, fill(image.Rect(0, 0, 780, 560), color.RGBA{70, 64, 66, 255})), image.Rect(0, 0, 780, 560)},
		{"dark band far into the crop", mk(780, 560, [4]int{0, 0, 0, 0}, fill(image.Rect(0, 0, 780, 120), cover)), image.Rect(0, 0, 780, 560)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pageBounds(tc.img); got != tc.want {
				t.Fatalf("pages %v, want %v", got, tc.want)
			}
		})
	}
}
