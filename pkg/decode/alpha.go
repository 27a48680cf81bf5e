package decode

import (
	"image"
	"image/color"
)

// flatten lays an image with transparent pixels on white paper, as a
// viewer shows it, so that no later stage sees alpha. Without it a page
// whose paper is transparent (a PDF converted to PNG by ImageMagick, a
// scan with its background removed) reaches the models as black ink on a
// black page. The decoder's own image is changed in place; an opaque
// 8-bit NRGBA image is returned as the *image.RGBA it equals, the form the
// later stages read fastest. Images without alpha are returned unchanged.
func flatten(img image.Image) image.Image {
	switch im := img.(type) {
	case *image.NRGBA:
		flatten8(im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), false)
		return &image.RGBA{Pix: im.Pix, Stride: im.Stride, Rect: im.Rect}
	case *image.RGBA:
		flatten8(im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), true)
	case *image.NRGBA64:
		flatten64(im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), false)
	case *image.RGBA64:
		flatten64(im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), true)
	case *image.Paletted:
		for i, c := range im.Palette {
			n := color.NRGBAModel.Convert(c).(color.NRGBA)
			if n.A == 255 {
				continue
			}
			im.Palette[i] = color.RGBA{R: onWhite(n.R, n.A), G: onWhite(n.G, n.A), B: onWhite(n.B, n.A), A: 255}
		}
	}
	return img
}

// onWhite is colour value v at straight (non-premultiplied) alpha a laid
// on white.
func onWhite(v, a uint8) uint8 {
	return uint8((uint32(v)*uint32(a) + 255*uint32(255-a) + 127) / 255)
}

// flatten8 lays w x h 8-bit pixels (pix from the first one; premultiplied
// or straight) on white in place: straight colour is mixed with white by its alpha, premultiplied
// colour has the paper added by 255 - a.
func flatten8(pix []byte, stride, w, h int, premultiplied bool) {
	for y := 0; y < h; y++ {
		row := pix[y*stride : y*stride+4*w]
		for i := 0; i < len(row); i += 4 {
			a := row[i+3]
			if a == 255 {
				continue
			}
			for c := i; c < i+3; c++ {
				if premultiplied {
					row[c] = uint8(min(255, int(row[c])+int(255-a)))
				} else {
					row[c] = onWhite(row[c], a)
				}
			}
			row[i+3] = 255
		}
	}
}

// flatten64 lays w x h 16-bit big-endian pixels (pix from the first one;
// premultiplied or straight) on white in place.
func flatten64(pix []byte, stride, w, h int, premultiplied bool) {
	get := func(b []byte) uint32 { return uint32(b[0])<<8 | uint32(b[1]) }
	put := func(b []byte, v uint32) { b[0], b[1] = uint8(v>>8), uint8(v) }
	for y := 0; y < h; y++ {
		row := pix[y*stride : y*stride+8*w]
		for i := 0; i < len(row); i += 8 {
			a := get(row[i+6:])
			if a == 0xffff {
				continue
			}
			for c := 0; c < 3; c++ {
				v := get(row[i+2*c:])
				if premultiplied {
					v = min(0xffff, v+0xffff-a)
				} else {
					v = (v*a + 0xffff*(0xffff-a) + 0x7fff) / 0xffff
				}
				put(row[i+2*c:], v)
			}
			put(row[i+6:], 0xffff)
		}
	}
}
