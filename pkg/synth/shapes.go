package synth

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
)

// photo draws a procedural portrait: plain backdrop, shoulders, neck,
// head, hair and a face. "ghost" draws it small, pale and monochrome.
func (c *drawCtx) photo(e *Element) {
	x, y, w, h := c.px(e.Box)
	r := c.r
	tile := image.NewRGBA(image.Rect(0, 0, int(w)+1, int(h)+1))
	bgs := []color.RGBA{{235, 236, 238, 255}, {214, 226, 240, 255}, {245, 245, 245, 255}, {200, 210, 220, 255}, {228, 222, 210, 255}}
	fillRect(tile, tile.Rect, Pick(r, bgs))
	skins := []color.RGBA{{236, 200, 175, 255}, {224, 180, 150, 255}, {198, 150, 115, 255}, {160, 115, 85, 255}, {241, 210, 190, 255}}
	hairs := []color.RGBA{{40, 30, 25, 255}, {80, 55, 35, 255}, {20, 20, 22, 255}, {150, 110, 70, 255}, {120, 120, 120, 255}, {200, 170, 120, 255}}
	cloth := []color.RGBA{{30, 35, 50, 255}, {60, 60, 65, 255}, {90, 30, 35, 255}, {230, 230, 235, 255}, {40, 70, 110, 255}}
	skin, hair := Pick(r, skins), Pick(r, hairs)
	cx := w * r.Range(0.46, 0.54)
	hy := h * r.Range(0.36, 0.44)
	hr := w * r.Range(0.2, 0.25)
	p := c.p
	p.fillPoly(tile, ellipsePts(cx, h*1.08, w*r.Range(0.48, 0.6), h*0.36, 40), Pick(r, cloth))
	p.fillPoly(tile, [][2]float64{{cx - hr*0.45, hy}, {cx + hr*0.45, hy}, {cx + hr*0.5, h * 0.8}, {cx - hr*0.5, h * 0.8}}, mix(skin, color.RGBA{0, 0, 0, 255}, 0.12))
	if r.Bool(0.5) {
		p.fillPoly(tile, ellipsePts(cx, hy+hr*0.1, hr*1.25, hr*1.55, 40), hair) // long hair
	}
	p.fillPoly(tile, ellipsePts(cx, hy, hr, hr*1.3, 48), skin)
	p.fillPoly(tile, ellipsePts(cx, hy-hr*0.75, hr*1.05, hr*0.62, 40), hair)
	eye := color.RGBA{40, 35, 35, 255}
	for _, sx := range []float64{-1, 1} {
		p.fillPoly(tile, ellipsePts(cx+sx*hr*0.38, hy-hr*0.05, hr*0.14, hr*0.07, 16), eye)
		p.strokePath(tile, [][2]float64{{cx + sx*hr*0.2, hy - hr*0.25}, {cx + sx*hr*0.55, hy - hr*0.28}}, hr*0.06, hair)
	}
	p.strokePath(tile, [][2]float64{{cx, hy}, {cx - hr*0.07, hy + hr*0.35}, {cx + hr*0.05, hy + hr*0.38}}, hr*0.04, mix(skin, eye, 0.35))
	p.strokePath(tile, [][2]float64{{cx - hr*0.25, hy + hr*0.62}, {cx, hy + hr*0.67}, {cx + hr*0.25, hy + hr*0.62}}, hr*0.06, color.RGBA{150, 80, 80, 255})
	// soften the drawing and light it from one side, like a printed photo
	shadePortrait(tile, r.Range(-1, 1), r.Range(0.05, 0.25))
	_ = gaussianBlur(tile, math.Max(0.6, w/180))
	ghost := e.Kind == "ghost"
	// "any" is a photo pasted in colour or in black and white, as both
	// happen on one document type. The choice comes from a generator of its
	// own, seeded by the portrait's drawn geometry, so it does not shift the
	// draws of the elements after it (a scene of a given seed keeps its zone).
	bw := e.Style == "bw" || (e.Style == "any" && NewRand(uint64(cx*1e6)^uint64(hy*1e3)).Bool(0.5))
	if ghost || bw {
		for i := 0; i < len(tile.Pix); i += 4 {
			g := (uint32(tile.Pix[i])*3 + uint32(tile.Pix[i+1])*6 + uint32(tile.Pix[i+2])) / 10
			tile.Pix[i], tile.Pix[i+1], tile.Pix[i+2] = uint8(g), uint8(g), uint8(g)
		}
	}
	mask := image.NewUniform(color.Alpha{255})
	if ghost {
		mask = image.NewUniform(color.Alpha{80})
	}
	draw.DrawMask(c.dst, image.Rect(int(x), int(y), int(x+w), int(y+h)), tile, image.Point{}, mask, image.Point{}, draw.Over)
}

// signature draws a random scribble in the box.
func (c *drawCtx) signature(e *Element) {
	x, y, w, h := c.px(e.Box)
	r := c.r
	n := r.IntRange(14, 30)
	var pts [][2]float64
	px, py := x+w*0.05, y+h*r.Range(0.3, 0.7)
	vx, vy := w/float64(n)*1.2, 0.0
	for i := 0; i < n*6; i++ {
		if i%6 == 0 {
			vx = w / float64(n) * r.Range(-0.6, 2.2)
			vy = h * r.Range(-0.45, 0.45)
		}
		px = clamp(px+vx/6, x, x+w)
		py = clamp(py+vy/6, y, y+h)
		pts = append(pts, [2]float64{px, py})
	}
	col := colorOr(e.Color, Pick(r, []color.RGBA{{20, 30, 110, 235}, {25, 25, 30, 235}, {40, 50, 150, 220}}))
	c.p.strokePath(c.dst, smooth(pts), math.Max(1, 0.25*c.s), col)
}

// smooth rounds a polyline with Chaikin's corner cutting.
func smooth(pts [][2]float64) [][2]float64 {
	for k := 0; k < 2; k++ {
		var out [][2]float64
		for i := 0; i+1 < len(pts); i++ {
			a, b := pts[i], pts[i+1]
			out = append(out, [2]float64{0.75*a[0] + 0.25*b[0], 0.75*a[1] + 0.25*b[1]}, [2]float64{0.25*a[0] + 0.75*b[0], 0.25*a[1] + 0.75*b[1]})
		}
		pts = out
	}
	return pts
}

// stamp draws a seal: round (ring text, centre star), rect (lines of
// text) or a small triangle/square mark. A residence-page stamp
// (reg_stamp, dereg_stamp) draws its own text and, being the newest so
// far, becomes doc's truth.
func (c *drawCtx) stamp(e *Element, v *docValues, doc *Doc) {
	x, y, w, h := c.px(e.Box)
	r := c.r
	col := colorOr(e.Color, Pick(r, []color.RGBA{{70, 60, 150, 200}, {40, 70, 160, 190}, {120, 50, 120, 180}}))
	text := e.Text
	if e.Gen != "" && v != nil {
		if s, ok := v.residenceStamp(e.Gen); ok {
			text = s.text
			if doc != nil {
				recordNewest(doc, s, e.Box, c.t.SizeMM)
			}
		} else {
			text = v.get(e.Gen)
		}
	}
	cx, cy := x+w/2+r.Range(-0.08, 0.08)*w, y+h/2+r.Range(-0.08, 0.08)*h
	rot := r.Range(-0.5, 0.5)
	lw := math.Max(1, 0.25*c.s)
	switch e.Style {
	case "rect", "rect_hand":
		ww, hh := w*0.95, h*0.9
		sin, cos := math.Sincos(rot * 0.2)
		corner := func(u, v float64) [2]float64 { return [2]float64{cx + u*cos - v*sin, cy + u*sin + v*cos} }
		ring := [][2]float64{corner(-ww/2, -hh/2), corner(ww/2, -hh/2), corner(ww/2, hh/2), corner(-ww/2, hh/2), corner(-ww/2, -hh/2)}
		c.p.strokePath(c.dst, ring, lw*1.3, col)
		lines := strings.Split(text, "\n")
		lh := hh / float64(len(lines)+1)
		for i, ln := range lines {
			st := textStyle{font: "sans-bold", size: math.Min(lh*0.7, 2.4*c.s), col: col, rot: -rot * 0.2}
			if e.Style == "rect_hand" && i > 0 {
				st = textStyle{font: "hand", size: math.Min(lh*0.8, 2.8*c.s), col: inkHand, rot: -rot * 0.2, skew: 0.15, jitter: r}
			}
			tw := c.p.measure(ln, st)
			if tw > ww*0.92 {
				st.squeeze = ww * 0.92 / tw
				tw = ww * 0.92
			}
			c.p.drawText(c.dst, ln, cx-tw/2, cy-hh/2+lh*(float64(i)+1)+st.size*0.3, st)
		}
	default:
		rad := math.Min(w, h) / 2 * 0.95
		c.p.strokePath(c.dst, closeRing(ellipsePts(cx, cy, rad, rad, 72)), lw*1.4, col)
		c.p.strokePath(c.dst, closeRing(ellipsePts(cx, cy, rad*0.68, rad*0.68, 60)), lw, col)
		if text == "" {
			text = "ДЛЯ ДОКУМЕНТОВ"
		}
		runes := []rune(strings.ToUpper(text) + " * ")
		size := rad * 0.2
		step := 2 * math.Pi / float64(len(runes))
		for i, ch := range runes {
			a := rot + float64(i)*step - math.Pi/2
			st := textStyle{font: "sans-bold", size: size, col: col, rot: -(a + math.Pi/2)}
			px, py := cx+rad*0.74*math.Cos(a), cy+rad*0.74*math.Sin(a)
			// the glyph origin sits half an advance back along the tangent
			c.p.drawText(c.dst, string(ch), px-size*0.3*math.Cos(a+math.Pi/2), py-size*0.3*math.Sin(a+math.Pi/2), st)
		}
		c.p.fillPoly(c.dst, starPts(cx, cy, rad*0.3, rad*0.12, 5, rot), col)
	}
}

func closeRing(p [][2]float64) [][2]float64 { return append(p, p[0]) }

// starPts is an n-pointed star.
func starPts(cx, cy, ro, ri float64, n int, rot float64) [][2]float64 {
	var out [][2]float64
	for i := 0; i < 2*n; i++ {
		rr := ro
		if i%2 == 1 {
			rr = ri
		}
		a := rot - math.Pi/2 + float64(i)*math.Pi/float64(n)
		out = append(out, [2]float64{cx + rr*math.Cos(a), cy + rr*math.Sin(a)})
	}
	return out
}

// barcode draws random bars (1D) or a stacked PDF417-like block.
func (c *drawCtx) barcode(e *Element) {
	x, y, w, h := c.px(e.Box)
	col := colorOr(e.Color, color.RGBA{20, 20, 20, 255})
	rows := 1
	if e.Style == "pdf417" {
		rows = int(math.Max(3, h/(1.2*c.s)))
	}
	unit := math.Max(1, w/float64(sizeOrInt(e.N, 95)))
	for rr := 0; rr < rows; rr++ {
		y0 := y + h*float64(rr)/float64(rows)
		y1 := y + h*float64(rr+1)/float64(rows)
		for bx := x; bx < x+w; {
			bw := unit * float64(c.r.IntRange(1, 3))
			if c.r.Bool(0.5) {
				fillRect(c.dst, image.Rect(int(bx), int(y0), int(math.Min(bx+bw, x+w)), int(y1)), col)
			}
			bx += bw
		}
	}
}

func sizeOrInt(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// qr draws a QR-like module grid with three finder patterns.
func (c *drawCtx) qr(e *Element) {
	x, y, w, h := c.px(e.Box)
	n := sizeOrInt(e.N, 25)
	m := math.Min(w, h) / float64(n)
	col := colorOr(e.Color, color.RGBA{15, 15, 15, 255})
	finder := func(i, j int) bool {
		for _, f := range [][2]int{{0, 0}, {n - 7, 0}, {0, n - 7}} {
			if i >= f[0] && i < f[0]+7 && j >= f[1] && j < f[1]+7 {
				di, dj := i-f[0], j-f[1]
				return di == 0 || di == 6 || dj == 0 || dj == 6 || (di >= 2 && di <= 4 && dj >= 2 && dj <= 4)
			}
			if i >= f[0]-1 && i <= f[0]+7 && j >= f[1]-1 && j <= f[1]+7 {
				return false
			}
		}
		return c.r.Bool(0.5)
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if finder(i, j) {
				fillRect(c.dst, image.Rect(int(x+float64(i)*m), int(y+float64(j)*m), int(x+float64(i+1)*m), int(y+float64(j+1)*m)), col)
			}
		}
	}
}

// chip draws a gold contact chip.
func (c *drawCtx) chip(e *Element) {
	x, y, w, h := c.px(e.Box)
	gold := colorOr(e.Color, color.RGBA{212, 175, 95, 255})
	c.p.fillPoly(c.dst, roundRectPts(x, y, w, h, 1.2*c.s), gold)
	dark := mix(gold, color.RGBA{60, 40, 10, 255}, 0.45)
	lw := math.Max(1, 0.2*c.s)
	c.p.strokePath(c.dst, [][2]float64{{x + w*0.35, y}, {x + w*0.35, y + h}}, lw, dark)
	c.p.strokePath(c.dst, [][2]float64{{x + w*0.65, y}, {x + w*0.65, y + h}}, lw, dark)
	for _, f := range []float64{0.33, 0.66} {
		c.p.strokePath(c.dst, [][2]float64{{x, y + h*f}, {x + w*0.35, y + h*f}}, lw, dark)
		c.p.strokePath(c.dst, [][2]float64{{x + w*0.65, y + h*f}, {x + w, y + h*f}}, lw, dark)
	}
}

// hologram draws a translucent iridescent patch.
func (c *drawCtx) hologram(e *Element) {
	x, y, w, h := c.px(e.Box)
	box := image.Rect(int(x), int(y), int(x+w), int(y+h)).Intersect(c.dst.Rect)
	cx, cy := x+w/2, y+h/2
	for py := box.Min.Y; py < box.Max.Y; py++ {
		for px := box.Min.X; px < box.Max.X; px++ {
			dx, dy := (float64(px)-cx)/(w/2), (float64(py)-cy)/(h/2)
			d := dx*dx + dy*dy
			if d > 1 {
				continue
			}
			hue := math.Mod((dx+dy)*180+360+math.Sin(d*20)*40, 360)
			col := hsl(hue, 0.6, 0.72, 255)
			a := 0.28 * (1 - d*0.6)
			i := c.dst.PixOffset(px, py)
			c.dst.Pix[i] = uint8(float64(c.dst.Pix[i])*(1-a) + float64(col.R)*a)
			c.dst.Pix[i+1] = uint8(float64(c.dst.Pix[i+1])*(1-a) + float64(col.G)*a)
			c.dst.Pix[i+2] = uint8(float64(c.dst.Pix[i+2])*(1-a) + float64(col.B)*a)
		}
	}
}

// flag draws stripes: Style "h:#c1,#c2,..." (horizontal) or "v:...".
func (c *drawCtx) flag(e *Element) {
	x, y, w, h := c.px(e.Box)
	parts := strings.SplitN(e.Style, ":", 2)
	if len(parts) != 2 {
		return
	}
	cols := strings.Split(parts[1], ",")
	for i, cs := range cols {
		col := parseColor(cs)
		f0, f1 := float64(i)/float64(len(cols)), float64(i+1)/float64(len(cols))
		var r image.Rectangle
		if parts[0] == "v" {
			r = image.Rect(int(x+w*f0), int(y), int(x+w*f1), int(y+h))
		} else {
			r = image.Rect(int(x), int(y+h*f0), int(x+w), int(y+h*f1))
		}
		fillRect(c.dst, r, col)
	}
}

// shadePortrait darkens the tile towards one side (dir -1 left, 1 right)
// with strength s, and adds a little grain.
func shadePortrait(tile *image.RGBA, dir, s float64) {
	w, h := tile.Rect.Dx(), tile.Rect.Dy()
	for y := 0; y < h; y++ {
		row := tile.Pix[y*tile.Stride:]
		for x := 0; x < w; x++ {
			t := float64(x)/float64(w) - 0.5
			f := 1 - s*(0.5+dir*t) - 0.08*float64(y)/float64(h)
			n := float64(int(uint32(x*2654435761)^uint32(y*40503))%7-3) * 1.5
			i := 4 * x
			for c := 0; c < 3; c++ {
				row[i+c] = uint8(clamp(float64(row[i+c])*f+n, 0, 255))
			}
		}
	}
}
