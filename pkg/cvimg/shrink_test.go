package cvimg

import (
	"image"
	"image/color"
	"testing"
)

func TestShrink(t *testing.T) {
	// A 400 x 100 image, left half black, right half white, with its
	// origin away from (0, 0) as a sub-image has.
	src := image.NewRGBA(image.Rect(10, 20, 410, 120))
	for y := 20; y < 120; y++ {
		for x := 10; x < 410; x++ {
			if x >= 210 {
				src.Set(x, y, color.White)
			} else {
				src.Set(x, y, color.Black)
			}
		}
	}
	gray := image.NewGray(src.Bounds())
	for y := 20; y < 120; y++ {
		for x := 10; x < 410; x++ {
			gray.Set(x, y, src.At(x, y))
		}
	}
	cases := []struct {
		name    string
		img     image.Image
		maxSide int
		size    image.Point
		same    bool
	}{
		{"small enough", src, 400, image.Pt(400, 100), true},
		{"no limit", src, 0, image.Pt(400, 100), true},
		{"halved", src, 200, image.Pt(200, 50), false},
		{"odd factor", src, 150, image.Pt(150, 38), false},
		{"grey, halved", gray, 200, image.Pt(200, 50), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Shrink(c.img, c.maxSide)
			if err != nil {
				t.Fatal(err)
			}
			if c.same {
				if got != c.img {
					t.Fatal("an image within the limit was copied")
				}
				return
			}
			b := got.Bounds()
			if b.Min != (image.Point{}) || b.Size() != c.size {
				t.Fatalf("bounds %v, want %v at the origin", b, c.size)
			}
			// The halves keep their tones away from the boundary.
			left := color.GrayModel.Convert(got.At(b.Dx()/4, b.Dy()/2)).(color.Gray).Y
			right := color.GrayModel.Convert(got.At(3*b.Dx()/4, b.Dy()/2)).(color.Gray).Y
			if left > 5 || right < 250 {
				t.Errorf("left %d, right %d: want black and white", left, right)
			}
		})
	}
}
