package cvimg

import (
	"image"
	"image/color"
	"math"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/math/f64"
)

// Level returns img turned about its centre so that text lines slanted by
// angle (radians, positive falling to the right as image y grows
// downwards, as ppocr.Box.Angle gives it) lie level: the same bounds,
// white where nothing of img lands (bilinear).
func Level(img image.Image, angle float64) *image.RGBA {
	b := img.Bounds()
	c, s := math.Cos(angle), math.Sin(angle)
	cx, cy := float64(b.Min.X+b.Max.X)/2, float64(b.Min.Y+b.Max.Y)/2
	dst := image.NewRGBA(b)
	xdraw.Draw(dst, b, image.NewUniform(color.White), image.Point{}, xdraw.Src)
	// Source to destination: turn by -angle about the centre.
	m := f64.Aff3{
		c, s, cx - (c*cx + s*cy),
		-s, c, cy - (-s*cx + c*cy),
	}
	xdraw.BiLinear.Transform(dst, m, img, b, xdraw.Over, nil)
	return dst
}
