package roles

import (
	"image"
	"image/color"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// TestRelative checks, on a small image with no symmetry, that turning
// an image turned by one code by relative(from, to) gives the image
// turned by the other, for every pair of the eight codes, and that a
// rectangle turned along (turnRects) covers the same pixels.
func TestRelative(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 7, 5))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	mark := image.Rect(1, 1, 4, 2) // a mark of bright pixels, off every axis
	for y := mark.Min.Y; y < mark.Max.Y; y++ {
		for x := mark.Min.X; x < mark.Max.X; x++ {
			img.SetGray(x, y, color.Gray{Y: 255})
		}
	}
	for from := geom.Rotation(0); from < geom.NumRotations; from++ {
		for to := geom.Rotation(0); to < geom.NumRotations; to++ {
			a, err := cvimg.Turn(img, from)
			if err != nil {
				t.Fatal(err)
			}
			rel := relative(from, to)
			got, err := cvimg.Turn(a, rel)
			if err != nil {
				t.Fatal(err)
			}
			want, err := cvimg.Turn(img, to)
			if err != nil {
				t.Fatal(err)
			}
			if !samePixels(got, want) {
				t.Errorf("relative(%v, %v) = %v: turned image differs", from, to, rel)
				continue
			}
			m := turnRects(turnRects([]image.Rectangle{mark}, img.Bounds().Size(), from), a.Bounds().Size(), rel)[0]
			for y := m.Min.Y; y < m.Max.Y; y++ {
				for x := m.Min.X; x < m.Max.X; x++ {
					if v := color.GrayModel.Convert(want.At(want.Bounds().Min.X+x, want.Bounds().Min.Y+y)).(color.Gray).Y; v != 255 {
						t.Errorf("%v then %v: mark turned to %v, pixel %d,%d is %d, not the mark", from, rel, m, x, y, v)
					}
				}
			}
			if m.Dx()*m.Dy() != mark.Dx()*mark.Dy() {
				t.Errorf("%v then %v: mark turned to %v, want area %d", from, rel, m, mark.Dx()*mark.Dy())
			}
		}
	}
}

// samePixels reports whether a and b have the same size and grey levels.
func samePixels(a, b image.Image) bool {
	ab, bb := a.Bounds(), b.Bounds()
	if ab.Size() != bb.Size() {
		return false
	}
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			ga := color.GrayModel.Convert(a.At(ab.Min.X+x, ab.Min.Y+y)).(color.Gray).Y
			gb := color.GrayModel.Convert(b.At(bb.Min.X+x, bb.Min.Y+y)).(color.Gray).Y
			if ga != gb {
				return false
			}
		}
	}
	return true
}
