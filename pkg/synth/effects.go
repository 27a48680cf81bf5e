package synth

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// effects applies lighting, exposure, blur, resolution loss and noise to
// the canvas in place and returns the JPEG quality to encode with.
// Geometry is never changed, so the ground truth stays exact.
func (g *Generator) effects(img *image.RGBA, r *Rand, scan bool) (int, error) {
	fx := g.cfg.Effects
	W, H := img.Rect.Dx(), img.Rect.Dy()
	if scan {
		g.tone(img, r, 1, 0, [3]float64{1, 1, 1}, nil)
		if fx.Noise > 0 {
			g.addNoise(img, r, r.Range(0.5, 3)*fx.Noise)
		}
		if fx.Blur > 0 && r.Bool(0.3) {
			if err := gaussianBlur(img, r.Range(0.3, 0.9)*fx.Blur); err != nil {
				return 0, err
			}
		}
		return jpegQuality(r, fx.JPEG*0.6), nil
	}
	// light field: vignette, gradient, cast shadow and glare at low res
	var light *lightMap
	if fx.Lighting > 0 || fx.Glare > 0 || fx.Shadow > 0 {
		light = newLightMap(W, H)
		if fx.Lighting > 0 && r.Bool(0.8) {
			light.gradient(r, 0.35*fx.Lighting)
			light.vignette(r.Range(0, 0.45) * fx.Lighting)
		}
		if fx.Shadow > 0 && r.Bool(0.25*fx.Shadow) {
			light.castShadow(r, clamp(r.Range(0.2, 0.55)*fx.Shadow, 0, 0.9))
		}
		if fx.Glare > 0 && r.Bool(0.25*fx.Glare) {
			light.glare(r, r.Range(0.3, 1.1)*fx.Glare)
		}
	}
	gain, gamma := 1.0, 1.0
	if fx.Exposure > 0 && r.Bool(0.4) {
		e := r.Range(-1, 1) * fx.Exposure
		gain = math.Pow(2, e*0.8)
		gamma = math.Pow(1.4, -e*0.5)
	}
	cast := [3]float64{1, 1, 1}
	if fx.Lighting > 0 && r.Bool(0.6) {
		warm := r.Range(-0.08, 0.1) * fx.Lighting
		cast = [3]float64{1 + warm, 1 + r.Range(-0.03, 0.03)*fx.Lighting, 1 - warm}
	}
	g.tone(img, r, gain, gamma, cast, light)
	if fx.LowRes > 0 && r.Bool(0.15*fx.LowRes) {
		f := clamp(r.Range(0.25, 0.6)/math.Max(fx.LowRes, 0.5), 0.1, 0.9)
		small, err := resize(img, max(16, int(float64(W)*f)), max(16, int(float64(H)*f)), gocv.InterpolationArea)
		if err != nil {
			return 0, err
		}
		big, err := resize(small, W, H, gocv.InterpolationLinear)
		if err != nil {
			return 0, err
		}
		copy(img.Pix, big.Pix)
	}
	if fx.Blur > 0 {
		switch {
		case r.Bool(0.12 * fx.Blur):
			if err := motionBlur(img, int(r.Range(3, 14)*fx.Blur), r.Range(0, math.Pi)); err != nil {
				return 0, err
			}
		case r.Bool(0.4 * math.Min(1, fx.Blur)):
			if err := gaussianBlur(img, r.Range(0.4, 2.2)*fx.Blur); err != nil {
				return 0, err
			}
		}
	}
	if fx.Noise > 0 && r.Bool(0.7) {
		g.addNoise(img, r, r.Range(1, 9)*fx.Noise)
	}
	return jpegQuality(r, fx.JPEG), nil
}

// jpegQuality draws a quality: strength 0 gives 95, 1 gives 35..95.
func jpegQuality(r *Rand, s float64) int {
	lo := 95 - 60*math.Min(s, 1.5)
	return int(clamp(r.Range(lo, 96), 5, 96))
}

// tone applies a per-channel gain/gamma curve and the light field.
func (g *Generator) tone(img *image.RGBA, r *Rand, gain, gamma float64, cast [3]float64, light *lightMap) {
	var lut [3][256]float32
	var lut8 [3][256]uint8
	for c := 0; c < 3; c++ {
		for v := 0; v < 256; v++ {
			x := float64(v) / 255
			if gamma != 1 && gamma != 0 {
				x = math.Pow(x, gamma)
			}
			lut[c][v] = float32(x * gain * cast[c] * 255)
			lut8[c][v] = uint8(clamp(x*gain*cast[c]*255+0.5, 0, 255))
		}
	}
	W, H := img.Rect.Dx(), img.Rect.Dy()
	if light == nil {
		for y := 0; y < H; y++ {
			row := img.Pix[y*img.Stride : y*img.Stride+4*W]
			for i := 0; i < len(row); i += 4 {
				row[i] = lut8[0][row[i]]
				row[i+1] = lut8[1][row[i+1]]
				row[i+2] = lut8[2][row[i+2]]
			}
		}
		return
	}
	mul, add := light.full()
	for y := 0; y < H; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*W]
		mrow, arow := mul[y*W:(y+1)*W], add[y*W:(y+1)*W]
		for x := 0; x < W; x++ {
			i := 4 * x
			m, a := mrow[x], arow[x]*255
			for c := 0; c < 3; c++ {
				v := lut[c][row[i+c]]*m + a
				if v < 0 {
					v = 0
				} else if v > 255 {
					v = 255
				}
				row[i+c] = uint8(v)
			}
		}
	}
}

// addNoise adds Gaussian sensor noise of standard deviation sigma.
func (g *Generator) addNoise(img *image.RGBA, r *Rand, sigma float64) {
	ox, oy := r.Intn(noiseSide), r.Intn(noiseSide)
	k := int(sigma / 32 * 256)
	chroma := r.Bool(0.4)
	W, H := img.Rect.Dx(), img.Rect.Dy()
	for y := 0; y < H; y++ {
		row := img.Pix[y*img.Stride:]
		nrow := g.noise[((y+oy)&(noiseSide-1))*noiseSide:]
		for x := 0; x < W; x++ {
			n := int(nrow[(x+ox)&(noiseSide-1)]) * k >> 8
			i := 4 * x
			if chroma {
				n2 := int(nrow[(x*7+ox+101)&(noiseSide-1)]) * k >> 8
				row[i] = clampByte(int(row[i]) + n)
				row[i+1] = clampByte(int(row[i+1]) + (n+n2)/2)
				row[i+2] = clampByte(int(row[i+2]) + n2)
				continue
			}
			row[i] = clampByte(int(row[i]) + n)
			row[i+1] = clampByte(int(row[i+1]) + n)
			row[i+2] = clampByte(int(row[i+2]) + n)
		}
	}
}
