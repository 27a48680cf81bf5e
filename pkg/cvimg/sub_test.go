package cvimg

import (
	"image"
	"image/color"
	"testing"
)

// plain is an image without a SubImage method.
type plain struct{ image.Image }

// TestSub checks that a part of an image has the pixels of that part,
// whether the image can give a view of it or must be copied.
func TestSub(t *testing.T) {
	src := testImage(40, 30)
	r := image.Rect(10, 5, 25, 20)
	cases := []struct {
		name   string
		img    image.Image
		origin image.Point
	}{
		{"view of an RGBA image", src, r.Min},
		{"copy of an image without SubImage", plain{src}, image.Point{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Sub(c.img, r)
			if b := got.Bounds(); b.Size() != r.Size() || b.Min != c.origin {
				t.Fatalf("bounds %v, want size %v at %v", b, r.Size(), c.origin)
			}
			for y := range r.Dy() {
				for x := range r.Dx() {
					want := color.RGBAModel.Convert(src.At(r.Min.X+x, r.Min.Y+y))
					have := color.RGBAModel.Convert(got.At(c.origin.X+x, c.origin.Y+y))
					if want != have {
						t.Fatalf("pixel (%d, %d) = %v, want %v", x, y, have, want)
					}
				}
			}
		})
	}
}
