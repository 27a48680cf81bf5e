package extract

import "image"

// lightest returns img as grey levels, each pixel its brightest channel,
// contrast-stretched. The passport prints its values in black over a pale
// pink and salmon lace: in the brightest channel (red) the lace is nearly
// white and the values stay dark, where the usual luminance keeps the lace
// grey and Tesseract reads its strokes into the letters (ПЕТРОВ read as
// П ОВ). The stretch gives back the contrast of a faint grey or violet
// typewriter ink, whose thin dots the brightest channel pales (the real
// specimen's 12.09.1982 read as 12 03 1 982 without it). Red ink (the
// series and number) fades too, so that field is read on the colours.
func lightest(img image.Image) *image.Gray {
	b := img.Bounds()
	rgba := asRGBA(img)
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		src := rgba.Pix[rgba.PixOffset(b.Min.X, y):]
		dst := out.Pix[out.PixOffset(b.Min.X, y):]
		for x := 0; x < b.Dx(); x++ {
			dst[x] = max(src[4*x], src[4*x+1], src[4*x+2])
		}
	}
	stretch(out)
	return out
}
