package synth

import (
	"image"
	"math"
)

// composite warps a placed document into the canvas, with a soft drop
// shadow under it.
func (g *Generator) composite(canvas *image.RGBA, d placed, r *Rand, scan bool) error {
	q := ringOf(d.quad)
	pad := 12.0
	box := bounds(q, pad).Intersect(canvas.Rect)
	if box.Empty() {
		return nil
	}
	fx := g.cfg.Effects
	var w *image.RGBA
	var err error
	if d.doc.Paperlike && fx.Bend > 0 && !scan && r.Bool(0.5) {
		axis := r.Intn(2)
		size := float64(d.doc.Img.Rect.Dy())
		if axis == 1 {
			size = float64(d.doc.Img.Rect.Dx())
		}
		amp := size * r.Range(-0.025, 0.025) * fx.Bend
		// the bent sheet may bulge past the quad's box
		box = bounds(q, pad+math.Abs(amp)*4).Intersect(canvas.Rect)
		w, err = warpBent(d.doc.Img, d.h, box, amp, axis)
	} else {
		w, err = warp(d.doc.Img, d.h, box)
	}
	if err != nil {
		return err
	}
	if fx.Shadow > 0 && !scan && r.Bool(0.8) {
		dx, dy := r.Range(-6, 8)*fx.Shadow, r.Range(-2, 10)*fx.Shadow
		sigma := r.Range(2, 9) * math.Sqrt(fx.Shadow)
		strength := clamp(r.Range(0.15, 0.45)*fx.Shadow, 0, 0.85)
		if err := castShadow(canvas, w, box, dx, dy, sigma, strength); err != nil {
			return err
		}
	}
	alphaOver(canvas, w, box.Min)
	return nil
}

// castShadow darkens canvas under the document's alpha, shifted by
// (dx, dy) and blurred.
func castShadow(canvas, w *image.RGBA, box image.Rectangle, dx, dy, sigma, strength float64) error {
	m := int(math.Ceil(sigma*3 + math.Max(math.Abs(dx), math.Abs(dy))))
	sr := image.Rect(0, 0, box.Dx()+2*m, box.Dy()+2*m)
	sh := image.NewRGBA(sr)
	ox, oy := m+int(dx), m+int(dy)
	for y := 0; y < box.Dy(); y++ {
		for x := 0; x < box.Dx(); x++ {
			a := w.Pix[y*w.Stride+4*x+3]
			if a == 0 {
				continue
			}
			sx, sy := x+ox, y+oy
			if sx < 0 || sy < 0 || sx >= sr.Dx() || sy >= sr.Dy() {
				continue
			}
			sh.Pix[sy*sh.Stride+4*sx+3] = a
		}
	}
	if err := gaussianBlur(sh, sigma); err != nil {
		return err
	}
	org := box.Min.Sub(image.Pt(m, m))
	clip := sr.Add(org).Intersect(canvas.Rect)
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		crow := canvas.Pix[canvas.PixOffset(0, y):]
		srow := sh.Pix[(y-org.Y)*sh.Stride:]
		for x := clip.Min.X; x < clip.Max.X; x++ {
			a := float64(srow[4*(x-org.X)+3]) / 255 * strength
			if a == 0 {
				continue
			}
			i := 4 * x
			f := 1 - a
			crow[i] = uint8(float64(crow[i]) * f)
			crow[i+1] = uint8(float64(crow[i+1]) * f)
			crow[i+2] = uint8(float64(crow[i+2]) * f)
		}
	}
	return nil
}

// alphaOver composites src (straight alpha) at org onto dst.
func alphaOver(dst, src *image.RGBA, org image.Point) {
	r := src.Rect.Add(org).Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		drow := dst.Pix[dst.PixOffset(0, y):]
		srow := src.Pix[(y-org.Y)*src.Stride:]
		for x := r.Min.X; x < r.Max.X; x++ {
			j := 4 * (x - org.X)
			a := uint32(srow[j+3])
			if a == 0 {
				continue
			}
			i := 4 * x
			if a == 255 {
				drow[i], drow[i+1], drow[i+2] = srow[j], srow[j+1], srow[j+2]
				continue
			}
			drow[i] = uint8((uint32(drow[i])*(255-a) + uint32(srow[j])*a) / 255)
			drow[i+1] = uint8((uint32(drow[i+1])*(255-a) + uint32(srow[j+1])*a) / 255)
			drow[i+2] = uint8((uint32(drow[i+2])*(255-a) + uint32(srow[j+2])*a) / 255)
		}
	}
}
