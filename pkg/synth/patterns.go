package synth

import (
	"image"
	"image/color"
	"math"
)

// drawPattern renders one security pattern into dst (scale px per mm).
func (p *painter) drawPattern(dst *image.RGBA, pt Pattern, scale float64) {
	box := dst.Rect
	if pt.Box != nil {
		b := *pt.Box
		box = image.Rect(int(b[0]*scale), int(b[1]*scale), int((b[0]+b[2])*scale), int((b[1]+b[3])*scale)).Intersect(dst.Rect)
	}
	if box.Empty() {
		return
	}
	c1 := colorOr(pt.Color, color.RGBA{120, 140, 170, 255})
	c2 := colorOr(pt.Color2, c1)
	alpha := pt.Alpha
	if alpha == 0 {
		alpha = 0.35
	}
	period := pt.Scale
	if period == 0 {
		period = 0.8
	}
	periodPx := period * scale
	hw := pt.Width * scale / 2
	if hw == 0 {
		hw = math.Max(0.35, 0.09*scale)
	}
	wave := pt.N
	if wave == 0 {
		wave = 12
	}
	cx, cy := float64(box.Min.X+box.Max.X)/2, float64(box.Min.Y+box.Max.Y)/2
	if pt.Center != nil {
		cx, cy = pt.Center[0]*scale, pt.Center[1]*scale
	}
	radius := pt.Radius * scale
	sa, ca := math.Sincos(pt.Angle * math.Pi / 180)
	amp := pt.Amp * scale
	lam := wave * scale / (2 * math.Pi)
	const phase = 0.0
	lineCov := func(v float64) float64 {
		f := v - math.Floor(v)
		dd := (0.5 - math.Abs(f-0.5)) * periodPx
		return clamp(hw+0.5-dd, 0, 1)
	}
	if pt.Kind == "microtext" {
		p.drawMicrotext(dst, box, pt, scale, c1, alpha)
		return
	}
	w := float64(box.Dx())
	for y := box.Min.Y; y < box.Max.Y; y++ {
		row := dst.Pix[dst.PixOffset(0, y):]
		fy := float64(y) + 0.5
		for x := box.Min.X; x < box.Max.X; x++ {
			fx := float64(x) + 0.5
			xr := (fx-cx)*ca + (fy-cy)*sa
			yr := -(fx-cx)*sa + (fy-cy)*ca
			var cov float64
			switch pt.Kind {
			case "waves":
				cov = lineCov((yr + amp*math.Sin(xr/lam+phase)) / periodPx)
			case "mesh":
				s := amp * math.Sin(xr/lam)
				cov = math.Max(lineCov((yr+s)/periodPx), lineCov((yr-s)/periodPx+0.5))
			case "stripes":
				cov = lineCov(yr / periodPx)
			case "grid":
				cov = math.Max(lineCov(xr/periodPx), lineCov(yr/periodPx))
			case "rosette", "circles":
				rr := math.Hypot(xr, yr)
				th := math.Atan2(yr, xr)
				if pt.Kind == "circles" {
					cov = lineCov(rr / periodPx)
				} else {
					s := amp * math.Sin(wave*th)
					cov = math.Max(lineCov((rr+s)/periodPx), lineCov((rr-s)/periodPx+0.5))
				}
				if radius > 0 {
					cov *= clamp((radius-rr)/(0.1*radius+1), 0, 1)
				}
			case "rays":
				rr := math.Hypot(xr, yr)
				th := math.Atan2(yr, xr)
				f := th * wave / (2 * math.Pi)
				f -= math.Floor(f)
				cov = clamp(1-math.Abs(f-0.5)*4, 0, 1)
				if radius > 0 {
					cov *= clamp((radius-rr)/(0.1*radius+1), 0, 1)
				}
			case "dots":
				u, v := xr/periodPx, yr/periodPx
				du, dv := u-math.Floor(u)-0.5, v-math.Floor(v)-0.5
				cov = clamp((0.3-math.Hypot(du, dv))*periodPx+0.5, 0, 1)
			case "blobs":
				s := period * scale * 4
				v := math.Sin(xr/s+1.3*math.Sin(yr/(s*1.7))) * math.Sin(yr/(s*0.9)+0.7*math.Sin(xr/(s*2.3)))
				cov = clamp((v-0.1)*3, 0, 1)
			case "gradient":
				cov = clamp((xr+w/2)/w, 0, 1)
			case "noise":
				h := uint32(x)*374761393 + uint32(y)*668265263
				h = (h ^ (h >> 13)) * 1274126177
				cov = float64(h>>24) / 255
			case "border":
				bw := pt.Width * scale
				dEdge := math.Min(math.Min(fx-float64(box.Min.X), float64(box.Max.X)-fx), math.Min(fy-float64(box.Min.Y), float64(box.Max.Y)-fy))
				if dEdge < bw {
					s := amp * math.Sin((fx+fy)/lam)
					cov = math.Max(lineCov((fx-fy+s)/periodPx), lineCov((fx+fy-s)/periodPx))
				}
			}
			if cov <= 0 {
				continue
			}
			col := c1
			if pt.Color2 != "" {
				col = mix(c1, c2, clamp((fx-float64(box.Min.X))/w, 0, 1))
			}
			if pt.Kind == "gradient" {
				col = mix(c1, c2, cov)
				cov = 1
			}
			a := cov * alpha
			i := 4 * x
			row[i] = uint8(float64(row[i])*(1-a) + float64(col.R)*a)
			row[i+1] = uint8(float64(row[i+1])*(1-a) + float64(col.G)*a)
			row[i+2] = uint8(float64(row[i+2])*(1-a) + float64(col.B)*a)
		}
	}
}

// drawMicrotext fills box with rows of tiny repeated text.
func (p *painter) drawMicrotext(dst *image.RGBA, box image.Rectangle, pt Pattern, scale float64, col color.RGBA, alpha float64) {
	txt := pt.Text
	if txt == "" {
		txt = "РОССИЙСКАЯ ФЕДЕРАЦИЯ "
	}
	size := pt.Scale * scale
	if size == 0 {
		size = 0.7 * scale
	}
	st := textStyle{font: "sans", size: size, col: withAlpha(col, alpha), rot: pt.Angle * math.Pi / 180}
	unit := p.measure(txt, st)
	if unit <= 0 {
		return
	}
	line := txt
	for float64(len([]rune(line)))/float64(len([]rune(txt)))*unit < float64(box.Dx())*1.6 {
		line += txt
	}
	sub := dst.SubImage(box).(*image.RGBA)
	for y := float64(box.Min.Y) + size; y < float64(box.Max.Y)+size; y += size * 1.6 {
		off := math.Mod(y*7, unit)
		p.drawText(sub, line, float64(box.Min.X)-off, y, st)
	}
}
