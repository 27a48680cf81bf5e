package synth

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// lightMap is a low-resolution multiplicative and additive light field.
type lightMap struct {
	W, H   int
	w, h   int
	mul    []float32
	add    []float32
	hasAdd bool
}

const lightCell = 16

func newLightMap(W, H int) *lightMap {
	w, h := W/lightCell+2, H/lightCell+2
	l := &lightMap{W: W, H: H, w: w, h: h, mul: make([]float32, w*h), add: make([]float32, w*h)}
	for i := range l.mul {
		l.mul[i] = 1
	}
	return l
}

func (l *lightMap) each(f func(x, y float64, i int)) {
	for y := 0; y < l.h; y++ {
		for x := 0; x < l.w; x++ {
			f(float64(x)*lightCell, float64(y)*lightCell, y*l.w+x)
		}
	}
}

// gradient darkens one side of the image.
func (l *lightMap) gradient(r *Rand, s float64) {
	a := r.Range(0, 2*math.Pi)
	ca, sa := math.Cos(a), math.Sin(a)
	d := math.Hypot(float64(l.W), float64(l.H)) / 2
	k := r.Range(0, s)
	l.each(func(x, y float64, i int) {
		t := ((x-float64(l.W)/2)*ca + (y-float64(l.H)/2)*sa) / d
		l.mul[i] *= float32(1 - k*(t+1)/2)
	})
}

// vignette darkens the corners.
func (l *lightMap) vignette(s float64) {
	d := math.Hypot(float64(l.W), float64(l.H)) / 2
	l.each(func(x, y float64, i int) {
		t := math.Hypot(x-float64(l.W)/2, y-float64(l.H)/2) / d
		l.mul[i] *= float32(1 - s*t*t)
	})
}

// castShadow darkens a soft-edged half plane or blob, like a phone or a
// hand between the lamp and the table.
func (l *lightMap) castShadow(r *Rand, s float64) {
	cx, cy := r.Range(0, float64(l.W)), r.Range(0, float64(l.H))
	rx, ry := r.Range(0.2, 0.7)*float64(l.W), r.Range(0.2, 0.7)*float64(l.H)
	soft := r.Range(0.1, 0.5)
	l.each(func(x, y float64, i int) {
		t := math.Hypot((x-cx)/rx, (y-cy)/ry)
		v := clamp((1-t)/soft, 0, 1)
		l.mul[i] *= float32(1 - s*v)
	})
}

// glare adds a bright soft spot.
func (l *lightMap) glare(r *Rand, s float64) {
	cx, cy := r.Range(0.1, 0.9)*float64(l.W), r.Range(0.1, 0.9)*float64(l.H)
	rad := r.Range(0.05, 0.25) * math.Max(float64(l.W), float64(l.H))
	l.hasAdd = true
	l.each(func(x, y float64, i int) {
		t := math.Hypot(x-cx, y-cy) / rad
		l.add[i] += float32(s * math.Exp(-t*t*2))
	})
}

// full upsamples the fields to full resolution.
func (l *lightMap) full() (mul, add []float32) {
	up := func(src []float32) []float32 {
		m, err := gocv.NewMatFromBytes(l.h, l.w, gocv.MatTypeCV32F, f32bytes(src))
		if err != nil {
			return nil
		}
		defer m.Close()
		out := gocv.NewMat()
		defer out.Close()
		gocv.Resize(m, &out, image.Pt(l.w*lightCell, l.h*lightCell), 0, 0, gocv.InterpolationLinear)
		data, err := out.DataPtrFloat32()
		if err != nil {
			return nil
		}
		res := make([]float32, l.W*l.H)
		cols := out.Cols()
		for y := 0; y < l.H; y++ {
			copy(res[y*l.W:(y+1)*l.W], data[y*cols:y*cols+l.W])
		}
		return res
	}
	mul = up(l.mul)
	if l.hasAdd {
		add = up(l.add)
	} else {
		add = make([]float32, l.W*l.H)
	}
	if mul == nil {
		mul = make([]float32, l.W*l.H)
		for i := range mul {
			mul[i] = 1
		}
	}
	return mul, add
}
