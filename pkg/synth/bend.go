package synth

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// inv3 inverts a 3x3 matrix.
func inv3(m [9]float64) [9]float64 {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	return [9]float64{A / det, -(b*i - c*h) / det, (b*f - c*e) / det,
		B / det, (a*i - c*g) / det, -(a*f - c*d) / det,
		C / det, -(a*h - b*g) / det, (a*e - b*d) / det}
}

// warpBent is warp with the sheet bent: content is shifted across one
// axis by amp*sin(pi*t) along the other, so the corners (and the quad)
// stay exact while the long edges bow, as with a page that does not lie
// flat. axis 0 bends along the width, 1 along the height.
func warpBent(src *image.RGBA, hm [9]float64, dst image.Rectangle, amp float64, axis int) (*image.RGBA, error) {
	sm, err := matView(src)
	if err != nil {
		return nil, err
	}
	defer sm.Close()
	w, h := float64(src.Rect.Dx()), float64(src.Rect.Dy())
	hi := inv3(hm)
	W, H := dst.Dx(), dst.Dy()
	mx := gocv.NewMatWithSize(H, W, gocv.MatTypeCV32F)
	defer mx.Close()
	my := gocv.NewMatWithSize(H, W, gocv.MatTypeCV32F)
	defer my.Close()
	px, err := mx.DataPtrFloat32()
	if err != nil {
		return nil, err
	}
	py, err := my.DataPtrFloat32()
	if err != nil {
		return nil, err
	}
	for y := 0; y < H; y++ {
		fy := float64(y+dst.Min.Y) + 0.5
		for x := 0; x < W; x++ {
			fx := float64(x+dst.Min.X) + 0.5
			u, v := apply(hi, fx, fy)
			if axis == 0 {
				v += amp * math.Sin(math.Pi*clamp(u/w, 0, 1))
			} else {
				u += amp * math.Sin(math.Pi*clamp(v/h, 0, 1))
			}
			px[y*W+x] = float32(u - 0.5)
			py[y*W+x] = float32(v - 0.5)
		}
	}
	out := gocv.NewMat()
	defer out.Close()
	gocv.Remap(sm, &out, &mx, &my, gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
	return matToRGBA(out)
}

// addFolds draws the creases of a sheet folded in two or three: a thin
// shadow on one side of each crease and a highlight on the other.
func addFolds(img *image.RGBA, r *Rand) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var lines []float64
	horizontal := true
	switch r.Intn(3) {
	case 0:
		lines = []float64{1.0 / 3, 2.0 / 3}
	case 1:
		lines = []float64{0.5}
	default:
		lines = []float64{0.5}
		horizontal = false
	}
	band := math.Max(3, float64(min(w, h))*0.012)
	depth := r.Range(0.04, 0.12)
	for _, f := range lines {
		pos := f * float64(h)
		n := w
		if !horizontal {
			pos = f * float64(w)
			n = h
		}
		for d := -int(band); d <= int(band); d++ {
			k := 1 + depth*math.Exp(-float64(d*d)/(band*band/3))*sign(d)
			line := int(pos) + d
			for t := 0; t < n; t++ {
				x, y := t, line
				if !horizontal {
					x, y = line, t
				}
				if x < 0 || y < 0 || x >= w || y >= h {
					continue
				}
				i := img.PixOffset(x, y)
				for c := 0; c < 3; c++ {
					img.Pix[i+c] = uint8(clamp(float64(img.Pix[i+c])*k, 0, 255))
				}
			}
		}
	}
}

func sign(d int) float64 {
	if d < 0 {
		return -1
	}
	return 1
}
