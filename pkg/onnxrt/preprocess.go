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
func (in InputSpec) Tensor(dst []float32, img image.Image) []float32 {
	rgba := toRGBA(img)
	small := resizeBilinear(rgba, in.Width, in.Height)
	plane := in.Width * in.Height
	base := len(dst)
	dst = append(dst, make([]float32, 3*plane)...)
	out := dst[base:]
	for c := 0; c < 3; c++ {
		scale := float32(in.Scale / in.Std[c])
		shift := float32(in.Mean[c] / in.Std[c])
		o := out[c*plane : (c+1)*plane]
		for i := 0; i < plane; i++ {
			o[i] = float32(small[4*i+c])*scale - shift
		}
	}
	return dst
}

// toRGBA returns the image's pixels as tightly packed RGBA.
func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	if r, ok := img.(*image.RGBA); ok && r.Stride == 4*b.Dx() && b.Min == (image.Point{}) {
		return r
	}
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if g, ok := img.(*image.Gray); ok {
		for y := 0; y < b.Dy(); y++ {
			row := g.Pix[y*g.Stride : y*g.Stride+b.Dx()]
			o := out.Pix[y*out.Stride:]
			for x, v := range row {
				o[4*x], o[4*x+1], o[4*x+2], o[4*x+3] = v, v, v, 255
			}
		}
		return out
	}
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	return out
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

func clip8(v int64) uint8 {
	v >>= precisionBits
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

// resizeBilinear resizes packed RGBA to w×h the way Pillow does: a
// horizontal pass, then a vertical one, each rounded to 8 bits. Pillow
// skips a pass whose size does not change.
func resizeBilinear(src *image.RGBA, w, h int) []uint8 {
	sw, sh := src.Bounds().Dx(), src.Bounds().Dy()
	pix := src.Pix
	if sw != w {
		bounds, kernels := coefficients(sw, w)
		tmp := make([]uint8, 4*w*sh)
		for y := 0; y < sh; y++ {
			row := pix[y*4*sw:]
			for xx := 0; xx < w; xx++ {
				xmin, n := bounds[2*xx], bounds[2*xx+1]
				k := kernels[xx]
				for c := 0; c < 4; c++ {
					ss := int64(1) << (precisionBits - 1)
					for x := 0; x < n; x++ {
						ss += int64(row[4*(x+xmin)+c]) * int64(k[x])
					}
					tmp[4*(y*w+xx)+c] = clip8(ss)
				}
			}
		}
		pix, sw = tmp, w
	}
	if sh != h {
		bounds, kernels := coefficients(sh, h)
		out := make([]uint8, 4*w*h)
		for yy := 0; yy < h; yy++ {
			ymin, n := bounds[2*yy], bounds[2*yy+1]
			k := kernels[yy]
			for x := 0; x < 4*w; x++ {
				ss := int64(1) << (precisionBits - 1)
				for y := 0; y < n; y++ {
					ss += int64(pix[(y+ymin)*4*sw+x]) * int64(k[y])
				}
				out[4*w*yy+x] = clip8(ss)
			}
		}
		return out
	}
	if len(pix) == 4*w*h {
		return pix
	}
	return pix[:4*w*h]
}
