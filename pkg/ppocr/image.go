package ppocr

import (
	"image"
	"image/draw"
)

// Image is an image prepared for the models: an 8-bit RGB copy that
// detection and recognition of any number of regions share. Coordinates
// are those of the source image.
type Image struct {
	origin image.Point
	w, h   int
	pix    []uint8 // 3 bytes a pixel, row-major
}

// NewImage copies img for the models. An image other than RGBA (a JPEG's
// YCbCr page) is converted one row at a time, so a large page is not held
// as RGBA beside its copy.
func NewImage(img image.Image) *Image {
	b := img.Bounds()
	out := &Image{origin: b.Min, w: b.Dx(), h: b.Dy(), pix: make([]uint8, 3*b.Dx()*b.Dy())}
	m, isRGBA := img.(*image.RGBA)
	var buf *image.RGBA
	if !isRGBA {
		buf = image.NewRGBA(image.Rect(0, 0, out.w, 1))
	}
	for y := 0; y < out.h; y++ {
		var row []uint8
		if isRGBA {
			row = m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
		} else {
			draw.Draw(buf, buf.Bounds(), img, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
			row = buf.Pix
		}
		o := out.pix[3*y*out.w:]
		for x := 0; x < out.w; x++ {
			o[3*x], o[3*x+1], o[3*x+2] = row[4*x], row[4*x+1], row[4*x+2]
		}
	}
	return out
}

// Bounds is the source image's rectangle.
func (m *Image) Bounds() image.Rectangle {
	return image.Rectangle{Min: m.origin, Max: m.origin.Add(image.Pt(m.w, m.h))}
}

// tensor resamples the region r (relative to the origin) of m to w×h (bilinear, pixel centres
// aligned) into a 1×3×h×w tensor in the models' BGR channel order, each
// value v in 0..255 fed as (v/255 - mean[c]) / std[c].
func (m *Image) tensor(r image.Rectangle, w, h int, mean, std [3]float32) []float32 {
	out := make([]float32, 3*w*h)
	plane := w * h
	sx := float32(r.Dx()) / float32(w)
	sy := float32(r.Dy()) / float32(h)
	// Per-channel affine map of a 0..255 value, BGR order.
	var mul, add [3]float32
	for c := 0; c < 3; c++ {
		mul[c] = 1 / (255 * std[c])
		add[c] = -mean[c] / std[c]
	}
	x0s := make([]int, w)
	fxs := make([]float32, w)
	for x := 0; x < w; x++ {
		fx := (float32(x)+0.5)*sx - 0.5 + float32(r.Min.X)
		x0s[x], fxs[x] = floorClamp(fx, m.w)
	}
	for y := 0; y < h; y++ {
		fy := (float32(y)+0.5)*sy - 0.5 + float32(r.Min.Y)
		y0, wy := floorClamp(fy, m.h)
		y1 := min(y0+1, m.h-1)
		r0 := m.pix[3*y0*m.w:]
		r1 := m.pix[3*y1*m.w:]
		for x := 0; x < w; x++ {
			x0, wx := x0s[x], fxs[x]
			x1 := min(x0+1, m.w-1)
			for c := 0; c < 3; c++ {
				a := float32(r0[3*x0+c])*(1-wx) + float32(r0[3*x1+c])*wx
				b := float32(r1[3*x0+c])*(1-wx) + float32(r1[3*x1+c])*wx
				v := a*(1-wy) + b*wy
				bgr := 2 - c
				out[bgr*plane+y*w+x] = v*mul[bgr] + add[bgr]
			}
		}
	}
	return out
}

// floorClamp returns the integer part of f clamped to 0..n-1 and the
// fraction towards the next sample (0 at the borders).
func floorClamp(f float32, n int) (int, float32) {
	if f <= 0 {
		return 0, 0
	}
	i := int(f)
	if i >= n-1 {
		return n - 1, 0
	}
	return i, f - float32(i)
}
