package decode

import (
	"image"
	"image/color"
	"image/draw"
)

// eightBit hands the later stages a page in one of the forms they read
// without converting (*image.RGBA, *image.Gray or the JPEG decoder's
// *image.YCbCr). Every other form (16-bit PNG and TIFF, palettes, CMYK)
// would be drawn into an 8-bit copy by each stage that reads it; converted
// once here, the decoder's larger image is freed before the page is cut. A
// palette of greys (a bilevel or grey scan stored with a palette) becomes
// *image.Gray, a quarter of the RGBA's memory. Call it after flatten: alpha
// is gone by then.
func eightBit(img image.Image) image.Image {
	switch im := img.(type) {
	case *image.RGBA, *image.Gray, *image.YCbCr:
		return img
	case *image.Paletted:
		if greyPalette(im.Palette) {
			return convert(image.NewGray(im.Bounds()), img)
		}
	case *image.Gray16:
		out := image.NewGray(im.Rect)
		narrow(out.Pix, out.Stride, im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), 1)
		return out
	case *image.RGBA64:
		out := image.NewRGBA(im.Rect)
		narrow(out.Pix, out.Stride, im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), 4)
		return out
	case *image.NRGBA64:
		// Opaque after flatten, so straight and premultiplied agree.
		out := image.NewRGBA(im.Rect)
		narrow(out.Pix, out.Stride, im.Pix[im.PixOffset(im.Rect.Min.X, im.Rect.Min.Y):], im.Stride, im.Rect.Dx(), im.Rect.Dy(), 4)
		return out
	}
	return convert(image.NewRGBA(img.Bounds()), img)
}

// narrow rounds w x h pixels of ch 16-bit big-endian samples each (src
// from the first pixel on) to 8 bits. The standard library's colour models truncate instead, which
// darkens a 16-bit scan by half a level on average against the same scan
// written at 8 bits.
func narrow(dst []byte, dstStride int, src []byte, srcStride, w, h, ch int) {
	for y := range h {
		d := dst[y*dstStride : y*dstStride+w*ch]
		s := src[y*srcStride : y*srcStride+2*w*ch]
		for i := range d {
			v := uint32(s[2*i])<<8 | uint32(s[2*i+1])
			d[i] = uint8((v*255 + 32767) / 65535)
		}
	}
}

// convert draws src into dst, which has the same bounds, and returns dst.
func convert(dst draw.Image, src image.Image) image.Image {
	draw.Draw(dst, dst.Bounds(), src, src.Bounds().Min, draw.Src)
	return dst
}

// greyPalette reports whether every colour of p is a grey.
func greyPalette(p color.Palette) bool {
	for _, c := range p {
		r, g, b, _ := c.RGBA()
		if r != g || g != b {
			return false
		}
	}
	return true
}
