package synth

import (
	"image/color"
	"math"
)

// emblem draws a simplified state emblem in the box. Styles: eagle
// (double-headed), sun (disc and rays), crescent (crescent and star),
// star, wreath, chakra, trident, shield, lily, flower, mountain, lion.
func (c *drawCtx) emblem(e *Element) {
	x, y, w, h := c.px(e.Box)
	col := colorOr(e.Color, color.RGBA{170, 140, 60, 255})
	cx, cy := x+w/2, y+h/2
	rad := math.Min(w, h) / 2
	p := c.p
	lw := math.Max(1, rad*0.05)
	switch e.Style {
	case "eagle":
		// wings
		for _, s := range []float64{-1, 1} {
			var wing [][2]float64
			wing = append(wing, [2]float64{cx, cy - rad*0.3})
			for i := 0; i <= 6; i++ {
				f := float64(i) / 6
				wing = append(wing, [2]float64{cx + s*rad*(0.3+0.65*f), cy - rad*(0.75-0.5*f*f) + rad*0.12*float64(i%2)})
			}
			wing = append(wing, [2]float64{cx + s*rad*0.9, cy + rad*0.2}, [2]float64{cx + s*rad*0.3, cy + rad*0.3})
			p.fillPoly(c.dst, wing, col)
			// heads and crowns
			p.fillPoly(c.dst, ellipsePts(cx+s*rad*0.28, cy-rad*0.62, rad*0.13, rad*0.11, 16), col)
			p.fillPoly(c.dst, [][2]float64{{cx + s*rad*0.38, cy - rad*0.62}, {cx + s*rad*0.55, cy - rad*0.58}, {cx + s*rad*0.4, cy - rad*0.52}}, col)
			p.fillPoly(c.dst, starPts(cx+s*rad*0.28, cy-rad*0.82, rad*0.1, rad*0.05, 5, 0), col)
			// legs
			p.strokePath(c.dst, [][2]float64{{cx + s*rad*0.15, cy + rad*0.5}, {cx + s*rad*0.4, cy + rad*0.85}}, lw*2, col)
		}
		p.fillPoly(c.dst, starPts(cx, cy-rad*0.95, rad*0.14, rad*0.07, 5, 0), col)
		// body and shield
		p.fillPoly(c.dst, ellipsePts(cx, cy+rad*0.15, rad*0.28, rad*0.55, 24), col)
		p.fillPoly(c.dst, shieldPts(cx, cy+rad*0.15, rad*0.34, rad*0.38), mix(col, color.RGBA{160, 30, 40, 255}, 0.65))
		p.strokePath(c.dst, [][2]float64{{cx - rad*0.12, cy + rad*0.3}, {cx + rad*0.12, cy}}, lw, color.RGBA{240, 240, 240, 255})
	case "sun":
		p.fillPoly(c.dst, ellipsePts(cx, cy, rad*0.45, rad*0.45, 48), col)
		for i := 0; i < 32; i++ {
			a := float64(i) * 2 * math.Pi / 32
			p.fillPoly(c.dst, [][2]float64{
				{cx + rad*0.5*math.Cos(a-0.05), cy + rad*0.5*math.Sin(a-0.05)},
				{cx + rad*0.95*math.Cos(a), cy + rad*0.95*math.Sin(a)},
				{cx + rad*0.5*math.Cos(a+0.05), cy + rad*0.5*math.Sin(a+0.05)}}, col)
		}
		p.strokePath(c.dst, closeRing(ellipsePts(cx, cy, rad*0.32, rad*0.32, 40)), lw, color.RGBA{255, 255, 255, 200})
	case "crescent":
		p.fillPoly(c.dst, ellipsePts(cx-rad*0.1, cy, rad*0.7, rad*0.7, 48), col)
		bgc := c.dst.RGBAAt(int(x+1), int(y+1))
		p.fillPoly(c.dst, ellipsePts(cx+rad*0.08, cy, rad*0.56, rad*0.56, 48), bgc)
		p.fillPoly(c.dst, starPts(cx+rad*0.5, cy, rad*0.3, rad*0.13, 5, math.Pi/2), col)
	case "star":
		p.strokePath(c.dst, closeRing(ellipsePts(cx, cy, rad*0.95, rad*0.95, 60)), lw, col)
		p.fillPoly(c.dst, starPts(cx, cy, rad*0.85, rad*0.35, 5, 0), col)
	case "star8":
		p.fillPoly(c.dst, starPts(cx, cy, rad*0.95, rad*0.62, 8, 0), col)
		p.fillPoly(c.dst, ellipsePts(cx, cy, rad*0.45, rad*0.45, 40), mix(col, color.RGBA{255, 255, 255, 255}, 0.6))
		p.fillPoly(c.dst, starPts(cx, cy, rad*0.3, rad*0.15, 8, 0), col)
	case "wreath", "chakra", "lily":
		for i := 0; i < 14; i++ {
			a := math.Pi*0.15 + float64(i)*math.Pi*0.7/13
			for _, s := range []float64{-1, 1} {
				lx, ly := cx+s*rad*0.85*math.Cos(a+math.Pi/2), cy+rad*0.85*math.Sin(a+math.Pi/2)
				_ = ly
				p.fillPoly(c.dst, ellipsePts(lx, cy+rad*0.85*math.Sin(a+math.Pi/2)-rad*0.0, rad*0.09, rad*0.16, 12), col)
			}
		}
		switch e.Style {
		case "chakra":
			p.strokePath(c.dst, closeRing(ellipsePts(cx, cy, rad*0.5, rad*0.5, 48)), lw*1.5, col)
			for i := 0; i < 24; i++ {
				a := float64(i) * 2 * math.Pi / 24
				p.strokePath(c.dst, [][2]float64{{cx, cy}, {cx + rad*0.5*math.Cos(a), cy + rad*0.5*math.Sin(a)}}, lw*0.6, col)
			}
		case "lily":
			for i := 0; i < 7; i++ {
				a := -math.Pi/2 + float64(i-3)*0.35
				p.fillPoly(c.dst, petal(cx, cy+rad*0.3, rad*0.65, rad*0.16, a), col)
			}
		default:
			p.fillPoly(c.dst, ellipsePts(cx, cy, rad*0.5, rad*0.5, 40), mix(col, color.RGBA{255, 255, 255, 255}, 0.5))
			p.fillPoly(c.dst, starPts(cx, cy-rad*0.75, rad*0.16, rad*0.07, 5, 0), col)
			p.strokePath(c.dst, [][2]float64{{cx - rad*0.5, cy + rad*0.1}, {cx + rad*0.5, cy + rad*0.1}}, lw, col)
		}
	case "trident":
		p.strokePath(c.dst, [][2]float64{{cx, cy - rad*0.9}, {cx, cy + rad*0.7}}, lw*2.5, col)
		p.strokePath(c.dst, [][2]float64{{cx - rad*0.55, cy - rad*0.7}, {cx - rad*0.55, cy + rad*0.3}, {cx, cy + rad*0.7}, {cx + rad*0.55, cy + rad*0.3}, {cx + rad*0.55, cy - rad*0.7}}, lw*2.5, col)
		p.strokePath(c.dst, shieldPts(cx, cy, rad*0.85, rad*0.95), lw, col)
	case "flower":
		for i := 0; i < 5; i++ {
			a := float64(i) * 2 * math.Pi / 5
			p.fillPoly(c.dst, petal(cx, cy, rad*0.9, rad*0.35, a), col)
		}
		p.fillPoly(c.dst, ellipsePts(cx, cy, rad*0.18, rad*0.18, 20), mix(col, color.RGBA{255, 255, 255, 255}, 0.5))
	case "mountain":
		p.fillPoly(c.dst, [][2]float64{{cx - rad, cy + rad*0.6}, {cx - rad*0.3, cy - rad*0.5}, {cx, cy - rad*0.1}, {cx + rad*0.35, cy - rad*0.8}, {cx + rad, cy + rad*0.6}}, col)
		p.strokePath(c.dst, closeRing(ellipsePts(cx, cy, rad, rad, 60)), lw, col)
	case "lion":
		p.fillPoly(c.dst, [][2]float64{{cx - rad*0.4, cy + rad*0.9}, {cx - rad*0.3, cy - rad*0.2}, {cx + rad*0.3, cy - rad*0.2}, {cx + rad*0.4, cy + rad*0.9}}, col)
		p.fillPoly(c.dst, ellipsePts(cx, cy-rad*0.45, rad*0.4, rad*0.35, 30), col)
		p.strokePath(c.dst, closeRing(ellipsePts(cx, cy+rad*0.55, rad*0.2, rad*0.2, 24)), lw, col)
	default: // shield
		p.fillPoly(c.dst, shieldPts(cx, cy, rad*0.85, rad*0.95), col)
		inner := mix(col, color.RGBA{255, 255, 255, 255}, 0.55)
		p.fillPoly(c.dst, shieldPts(cx, cy, rad*0.6, rad*0.7), inner)
		p.fillPoly(c.dst, starPts(cx, cy-rad*0.05, rad*0.35, rad*0.15, 5, 0), col)
	}
}

// shieldPts is a heraldic shield outline centred at (cx, cy).
func shieldPts(cx, cy, hw, hh float64) [][2]float64 {
	pts := [][2]float64{{cx - hw, cy - hh}, {cx + hw, cy - hh}, {cx + hw, cy + hh*0.2}}
	for i := 1; i < 10; i++ {
		a := float64(i) / 10 * math.Pi / 2
		pts = append(pts, [2]float64{cx + hw*math.Cos(a), cy + hh*0.2 + hh*0.8*math.Sin(a)})
	}
	pts = append(pts, [2]float64{cx, cy + hh})
	for i := 9; i >= 1; i-- {
		a := float64(i) / 10 * math.Pi / 2
		pts = append(pts, [2]float64{cx - hw*math.Cos(a), cy + hh*0.2 + hh*0.8*math.Sin(a)})
	}
	return append(pts, [2]float64{cx - hw, cy + hh*0.2}, [2]float64{cx - hw, cy - hh})
}

// petal is a pointed ellipse from (cx, cy) towards angle a.
func petal(cx, cy, l, wd, a float64) [][2]float64 {
	var pts [][2]float64
	sin, cos := math.Sincos(a)
	for i := 0; i <= 16; i++ {
		t := float64(i) / 16 * math.Pi
		u, v := l*(1-math.Cos(t))/2, wd*math.Sin(t)
		pts = append(pts, [2]float64{cx + u*cos - v*sin, cy + u*sin + v*cos})
	}
	for i := 15; i > 0; i-- {
		t := float64(i) / 16 * math.Pi
		u, v := l*(1-math.Cos(t))/2, -wd*math.Sin(t)
		pts = append(pts, [2]float64{cx + u*cos - v*sin, cy + u*sin + v*cos})
	}
	return pts
}
