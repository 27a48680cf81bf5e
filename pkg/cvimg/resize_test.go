package cvimg

import (
	"image"
	"image/color"
	"reflect"
	"testing"
)

// TestResize: a page doubled in height keeps its type (grey, RGBA) or
// becomes RGBA, starts at (0, 0) whatever its origin, and keeps its
// picture: the top half black, the bottom white, rows apart of the seam.
func TestResize(t *testing.T) {
	r := image.Rect(10, 20, 110, 70) // a sub-image's origin and stride
	paint := func(img interface{ Set(x, y int, c color.Color) }) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := color.Color(color.White)
				if y < r.Min.Y+r.Dy()/2 {
					c = color.Black
				}
				img.Set(x, y, c)
			}
		}
	}
	gray := image.NewGray(image.Rect(0, 0, 200, 100))
	paint(gray)
	rgba := image.NewRGBA(image.Rect(0, 0, 200, 100))
	paint(rgba)
	nrgba := image.NewNRGBA(r)
	paint(nrgba)
	tests := []struct {
		name string
		img  image.Image
		want image.Image // of the type wanted
	}{
		{"grey sub-image", gray.SubImage(r), &image.Gray{}},
		{"RGBA sub-image", rgba.SubImage(r), &image.RGBA{}},
		{"NRGBA", nrgba, &image.RGBA{}},
	}
	size := image.Pt(100, 100)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Resize(tc.img, size)
			if err != nil {
				t.Fatal(err)
			}
			if reflect.TypeOf(out) != reflect.TypeOf(tc.want) {
				t.Fatalf("%T, want %T", out, tc.want)
			}
			if out.Bounds() != (image.Rectangle{Max: size}) {
				t.Fatalf("bounds %v, want %v", out.Bounds(), size)
			}
			for _, y := range []int{0, 45, 55, 99} {
				g := color.GrayModel.Convert(out.At(50, y)).(color.Gray).Y
				if black := y < 50; black && g > 10 || !black && g < 245 {
					t.Errorf("row %d is grey %d", y, g)
				}
			}
		})
	}
	if _, err := Resize(gray, image.Point{}); err == nil {
		t.Error("resized to nothing")
	}
}
