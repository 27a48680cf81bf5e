package cvimg

import (
	"image"
	"image/draw"
)

// Sub returns the part r of img: a view sharing its pixels (and its
// coordinates) when the image type has a SubImage method, as every
// decoded format does, else a copy with its origin at (0, 0).
func Sub(img image.Image, r image.Rectangle) image.Image {
	if s, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r)
	}
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), img, r.Min, draw.Src)
	return dst
}
