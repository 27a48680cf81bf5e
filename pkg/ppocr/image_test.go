package ppocr

import (
	"bytes"
	"image"
	"image/draw"
	"testing"
)

// TestNewImageOfAnyKind: a JPEG's YCbCr page, converted one row at a
// time, and a sub-image give the models the same pixels as RGBA does.
func TestNewImageOfAnyKind(t *testing.T) {
	// A 4:2:2 page of a colour ramp, each pixel its own colour.
	ycc := image.NewYCbCr(image.Rect(0, 0, 31, 17), image.YCbCrSubsampleRatio422)
	for y := 0; y < 17; y++ {
		for x := 0; x < 31; x++ {
			ycc.Y[ycc.YOffset(x, y)] = uint8(8 * (x + y))
			ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = uint8(90+3*x), uint8(170-4*y)
		}
	}
	rgba := image.NewRGBA(ycc.Bounds())
	draw.Draw(rgba, rgba.Bounds(), ycc, image.Point{}, draw.Src)
	want := NewImage(rgba)
	big := image.NewRGBA(image.Rect(0, 0, 40, 30))
	draw.Draw(big, image.Rect(5, 6, 36, 23), rgba, image.Point{}, draw.Src)
	sub := big.SubImage(image.Rect(5, 6, 36, 23))
	for name, img := range map[string]image.Image{"ycbcr": ycc, "sub-image": sub} {
		got := NewImage(img)
		if got.w != want.w || got.h != want.h || !bytes.Equal(got.pix, want.pix) {
			t.Errorf("%s: pixels differ from RGBA's", name)
		}
		if got.origin != img.Bounds().Min {
			t.Errorf("%s: origin %v", name, got.origin)
		}
	}
}
