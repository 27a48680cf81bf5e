package onnxrt

import (
	"image"
	"image/draw"
	"math"
)

// Tensor turns an image into the model input the spec describes, appended
// to dst: squashed to Height×Width (aspect ignored) with the antialiased
// bilinear filter of Pillow's Image.resize(BILINEAR), the resampler the
// training script uses, in Pillow's 8-bit fixed-point arithmetic so that
// both sides see the same pixels; then NCHW RGB, (v*Scale - Mean) / Std.
// A greyscale image gives three equal channels, as Pillow's
// convert("RGB") does; alpha is ignored.
func (in InputSpec) Tensor(dst []float32, img image.Image) []float32 {
	small, ch := resize(img, in.Width, in.Height)
	plane := in.Width * in.Height
	base := len(dst)
	dst = append(dst, make([]float32, 3*plane)...)
	out := dst[base:]
	for c := 0; c < 3; c++ {
		scale := float32(in.Scale / in.Std[c])
		shift := float32(in.Mean[c] / in.Std[c])
		o := out[c*plane : (c+1)*plane]
		src := small[min(c, ch-1):]
		for i := range o {
			o[i] = float32(src[ch*i])*scale - shift
		}
	}
	return dst
}

// rows gives the image's rows tightly packed, one byte per pixel for
// greyscale images and four (RGBA) for every other kind: row(y) is row y
// from the top (valid until the next call). A contiguous RGBA or grey
// image is read in place; any other (a JPEG's YCbCr page) is converted one
// row at a time, so a page of 100 megapixels is never held whole as RGBA
// (400 MB) just to be shrunk to the model's input.
func rows(img image.Image) (row func(y int) []uint8, bpp int) {
	b := img.Bounds()
	w := b.Dx()
	switch m := img.(type) {
	case *image.Gray:
		return func(y int) []uint8 { return m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:w] }, 1
	case *image.RGBA:
		return func(y int) []uint8 { return m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*w] }, 4
	}
	buf := image.NewRGBA(image.Rect(0, 0, w, 1))
	return func(y int) []uint8 {
		draw.Draw(buf, buf.Bounds(), img, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
		return buf.Pix
	}, 4
}

// precisionBits is Pillow's fixed-point precision for 8-bit resampling.
const precisionBits = 32 - 8 - 2

// coefficients computes Pillow's resampling weights for one axis with the
// bilinear (triangle) filter, support widened by the downscale factor.
func coefficients(inSize, outSize int) (bounds []int, kernels [][]int32) {
	scale := float64(inSize) / float64(outSize)
	filterScale := math.Max(scale, 1)
	support := 1.0 * filterScale
	bounds = make([]int, 2*outSize)
	kernels = make([][]int32, outSize)
	for xx := 0; xx < outSize; xx++ {
		center := (float64(xx) + 0.5) * scale
		xmin := int(center - support + 0.5)
		if xmin < 0 {
			xmin = 0
		}
		xmax := int(center + support + 0.5)
		if xmax > inSize {
			xmax = inSize
		}
		xmax -= xmin
		k := make([]float64, xmax)
		ww := 0.0
		for x := 0; x < xmax; x++ {
			w := 1 - math.Abs((float64(x+xmin)-center+0.5)/filterScale)
			if w < 0 {
				w = 0
			}
			k[x] = w
			ww += w
		}
		ik := make([]int32, xmax)
		for x := range k {
			if ww != 0 {
				k[x] /= ww
			}
			if k[x] < 0 {
				ik[x] = int32(-0.5 + k[x]*(1<<precisionBits))
			} else {
				ik[x] = int32(0.5 + k[x]*(1<<precisionBits))
			}
		}
		bounds[2*xx], bounds[2*xx+1] = xmin, xmax
		kernels[xx] = ik
	}
	return bounds, kernels
}

// half is the rounding term Pillow starts each sum with.
const half = int32(1) << (precisionBits - 1)

// clip8 takes a fixed-point sum back to 8 bits. Sums fit in int32 as in
// Pillow: bilinear weights are non-negative and add up to 1<<precisionBits.
func clip8(v int32) uint8 {
	v >>= precisionBits
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

// resize squashes img to w×h the way Pillow's resize(BILINEAR) does on
// the RGB image: a horizontal pass, then a vertical one, each rounded to
// 8 bits, a pass skipped when its size does not change. It returns
// packed pixels of ch channels: 1 for a greyscale image (Pillow would
// resample three equal channels alike), else 3 (RGB).
func resize(img image.Image, w, h int) (pix []uint8, ch int) {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	row, bpp := rows(img)
	ch = min(bpp, 3)
	if sw != w {
		pix = horizontal(row, sw, sh, bpp, w)
	} else {
		pix = make([]uint8, ch*sw*sh)
		for y := 0; y < sh; y++ {
			r, o := row(y), pix[y*ch*sw:(y+1)*ch*sw]
			if bpp == ch {
				copy(o, r)
				continue
			}
			for x := 0; x < sw; x++ {
				copy(o[3*x:3*x+3], r[4*x:4*x+3])
			}
		}
	}
	if sh != h {
		pix = vertical(pix, ch*w, sh, h)
	}
	return pix, ch
}

// horizontal resamples sh rows (row) of sw pixels of bpp bytes (1: grey,
// 4: RGBA) to w pixels of 1 or 3 bytes.
func horizontal(row func(int) []uint8, sw, sh, bpp, w int) []uint8 {
	bounds, kernels := coefficients(sw, w)
	ch := min(bpp, 3)
	out := make([]uint8, ch*w*sh)
	for y := 0; y < sh; y++ {
		row := row(y)
		o := out[y*ch*w : (y+1)*ch*w]
		for xx := 0; xx < w; xx++ {
			xmin, n := bounds[2*xx], bounds[2*xx+1]
			k := kernels[xx][:n]
			seg := row[bpp*xmin : bpp*(xmin+n)]
			if ch == 1 {
				v := half
				for x, kv := range k {
					v += int32(seg[x]) * kv
				}
				o[xx] = clip8(v)
				continue
			}
			r, g, bl := half, half, half
			for x, kv := range k {
				p := seg[4*x : 4*x+3 : 4*x+3]
				r += int32(p[0]) * kv
				g += int32(p[1]) * kv
				bl += int32(p[2]) * kv
			}
			o[3*xx], o[3*xx+1], o[3*xx+2] = clip8(r), clip8(g), clip8(bl)
		}
	}
	return out
}

// vertical resamples sh rows of rowBytes bytes to h rows, every byte
// column on its own.
func vertical(src []uint8, rowBytes, sh, h int) []uint8 {
	bounds, kernels := coefficients(sh, h)
	out := make([]uint8, rowBytes*h)
	acc := make([]int32, rowBytes)
	for yy := 0; yy < h; yy++ {
		ymin, n := bounds[2*yy], bounds[2*yy+1]
		for i := range acc {
			acc[i] = half
		}
		for y, kv := range kernels[yy][:n] {
			row := src[(ymin+y)*rowBytes : (ymin+y+1)*rowBytes]
			for i, v := range row {
				acc[i] += int32(v) * kv
			}
		}
		o := out[yy*rowBytes : (yy+1)*rowBytes]
		for i, a := range acc {
			o[i] = clip8(a)
		}
	}
	return out
}
