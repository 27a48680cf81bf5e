package synth

import (
	"image"
	"image/color"
	"math"
	"strings"
	"unicode"
)

// drawCtx is the state of drawing one document.
type drawCtx struct {
	p   *painter
	dst *image.RGBA
	s   float64 // pixels per mm
	t   *Template
	r   *Rand // nil while drawing the cached background
	// valueFont is the instance's pick among t.ValueFonts, made at the
	// first value drawn in font "value".
	valueFont string
	// hand is the instance's handwriting (ink, case), picked at the first
	// handwritten value.
	hand *handStyle
	// vary is set when this instance strays from its template (see
	// varyPrint).
	vary *printVariation
}

// handStyle is how one clerk fills a form by hand.
type handStyle struct {
	ink   color.RGBA
	title bool // "Смирнова" rather than "СМИРНОВА"
}

// handInks are the pens forms are filled with: blue, dark blue, violet,
// black.
var handInks = []color.RGBA{inkHand, {30, 32, 70, 255}, {72, 40, 120, 255}, {24, 24, 30, 255}}

var (
	inkDark  = color.RGBA{28, 28, 34, 255}
	inkLabel = color.RGBA{70, 70, 90, 255}
	inkHand  = color.RGBA{25, 40, 125, 255}
)

// element draws e; v and doc are nil for static elements.
func (c *drawCtx) element(e *Element, v *docValues, doc *Doc) {
	b := e.Box
	switch e.Kind {
	case "text":
		c.textBox(e.Text, b, e.Font, sizeOr(e.Size, 2.6), colorOr(e.Color, inkDark), e.Align, e.Rotate, false, e.Spacing)
	case "field":
		c.field(c.vary.field(e), v, doc)
	case "para":
		c.para(e, v)
	case "rect":
		c.rect(e)
	case "line":
		c.line(b, colorOr(e.Color, inkLabel), widthOr(e.Width, 0.2))
	case "lines":
		n := e.N
		if n <= 0 {
			n = 5
		}
		for i := 1; i <= n; i++ {
			y := b[1] + b[3]*float64(i)/float64(n)
			c.line([4]float64{b[0], y, b[2], 0}, colorOr(e.Color, inkLabel), widthOr(e.Width, 0.15))
		}
	case "photo", "ghost":
		c.photo(c.vary.photo(e))
	case "emblem":
		c.emblem(e)
	case "stamp":
		c.stamp(e, v, doc)
	case "signature":
		c.signature(e)
	case "mrz":
		c.mrz(e, v, doc)
	case "barcode":
		c.barcode(e)
	case "qr":
		c.qr(e)
	case "chip":
		c.chip(e)
	case "hologram":
		c.hologram(e)
	case "flag":
		c.flag(e)
	case "table":
		c.table(e, v)
	}
}

func sizeOr(v, d float64) float64 {
	if v > 0 {
		return v
	}
	return d
}

func widthOr(v, d float64) float64 {
	if v > 0 {
		return v
	}
	return d
}

// px converts a box in mm to pixels.
func (c *drawCtx) px(b [4]float64) (x, y, w, h float64) {
	return b[0] * c.s, b[1] * c.s, b[2] * c.s, b[3] * c.s
}

// textBox lays out text (multi-line, wrapped or shrunk to fit) inside box.
func (c *drawCtx) textBox(text string, box [4]float64, fontKey string, sizeMM float64, col color.RGBA, align string, rotDeg float64, hand bool, spacing float64) {
	if text == "" {
		return
	}
	if fontKey == "" {
		fontKey = "sans"
		if hand {
			fontKey = "hand"
		}
	}
	x, y, w, h := c.px(box)
	rot := rotDeg * math.Pi / 180
	lw, lh := w, h
	if q := math.Mod(math.Abs(rotDeg), 180); q > 45 && q < 135 {
		lw, lh = h, w
	}
	if lh <= 0 {
		lh = sizeMM * c.s * 1.2
	}
	st := textStyle{font: fontKey, size: sizeMM * c.s, col: col, rot: rot, spacing: spacing * c.s}
	if hand && c.r != nil {
		st.skew = 0.15 + c.r.Range(-0.05, 0.1)
		st.jitter = c.r
		st.size *= c.r.Range(0.95, 1.1)
	}
	lines := strings.Split(text, "\n")
	lineH := st.size * 1.18
	// wrap long lines when the box has room for more lines
	if lw > 0 {
		var out []string
		for _, ln := range lines {
			if c.p.measure(ln, st) <= lw || lineH*float64(len(lines)+1) > lh*1.05 {
				out = append(out, ln)
				continue
			}
			out = append(out, wrap(c.p, ln, st, lw)...)
		}
		lines = out
	}
	// shrink when the block is too tall
	if n := float64(len(lines)); n*lineH > lh*1.1 && n > 1 {
		f := math.Max(0.55, lh*1.1/(n*lineH))
		st.size *= f
		lineH *= f
	}
	// squeeze lines that are still too wide
	maxW := 0.0
	for _, ln := range lines {
		maxW = math.Max(maxW, c.p.measure(ln, st))
	}
	if lw > 0 && maxW > lw {
		st.squeeze = math.Max(0.5, lw/maxW)
	}
	cx, cy := x+w/2, y+h/2
	sin, cos := math.Sincos(-rot)
	for i, ln := range lines {
		tw := c.p.measure(ln, st)
		u := 0.0
		switch align {
		case "c":
			u = (lw - tw) / 2
		case "r":
			u = lw - tw
		}
		vv := st.size*0.82 + float64(i)*lineH
		if lh < lineH*1.6 && len(lines) == 1 {
			vv = lh/2 + st.size*0.36 // single line: centre vertically
		}
		du, dv := u-lw/2, vv-lh/2
		ox := cx + du*cos - dv*sin
		oy := cy + du*sin + dv*cos
		c.p.drawText(c.dst, ln, ox, oy, st)
	}
}

// wrap splits s into lines no wider than w.
func wrap(p *painter, s string, st textStyle, w float64) []string {
	words := strings.Fields(s)
	var out []string
	cur := ""
	for _, wd := range words {
		try := wd
		if cur != "" {
			try = cur + " " + wd
		}
		if cur != "" && p.measure(try, st) > w {
			out = append(out, cur)
			cur = wd
			continue
		}
		cur = try
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// field draws a label and a value and records the value.
func (c *drawCtx) field(e *Element, v *docValues, doc *Doc) {
	gen := e.Gen
	if gen == "" {
		gen = e.Field
	}
	val := v.get(gen)
	if e.Upper {
		val = strings.ToUpper(val)
	}
	b := e.Box
	size := sizeOr(e.Size, 2.6)
	lsize := sizeOr(e.LabelSize, size*0.55)
	vb := b
	if e.Label != "" {
		lcol := colorOr(e.LabelColor, inkLabel)
		lfont := e.LabelFont
		if lfont == "" {
			lfont = "sans"
		}
		switch e.LabelPos {
		case "left":
			lw := e.LabelW
			if lw == 0 {
				lw = b[2] * 0.3
			}
			c.textBox(e.Label, [4]float64{b[0], b[1], lw, b[3]}, lfont, lsize, lcol, "l", 0, false, 0)
			vb = [4]float64{b[0] + lw, b[1], b[2] - lw, b[3]}
		case "below":
			c.textBox(e.Label, [4]float64{b[0], b[1] + b[3] - lsize*1.2, b[2], lsize * 1.2}, lfont, lsize, lcol, e.Align, 0, false, 0)
			vb = [4]float64{b[0], b[1], b[2], b[3] - lsize*1.2}
		default:
			c.textBox(e.Label, [4]float64{b[0], b[1], b[2], lsize * 1.25}, lfont, lsize, lcol, e.Align, 0, false, 0)
			vb = [4]float64{b[0], b[1] + lsize*1.3, b[2], math.Max(b[3]-lsize*1.3, size*1.2)}
		}
	}
	hand := e.Hand
	col := inkDark
	if hand {
		var title bool
		col, title = c.handOf(val)
		if title {
			val = titleCase(val)
		}
	}
	col = colorOr(e.Color, col)
	if e.Style == "cells" {
		c.cells(val, vb, c.fontOf(e, val), size, col)
	} else {
		c.textBox(val, vb, c.fontOf(e, val), size, col, e.Align, e.Rotate, hand, e.Spacing)
	}
	if doc != nil && e.Field != "" {
		doc.Fields[e.Field] = val
		W, H := c.t.SizeMM[0], c.t.SizeMM[1]
		doc.Boxes[e.Field] = [4]float64{vb[0] / W, vb[1] / H, (vb[0] + vb[2]) / W, (vb[1] + vb[3]) / H}
	}
}

// cells prints val one character a cell across box, each cell outlined
// as on forms filled by machine (INN, OGRN); a slash or space stands
// between cells without an outline.
func (c *drawCtx) cells(val string, box [4]float64, font string, size float64, col color.RGBA) {
	rs := []rune(val)
	if len(rs) == 0 {
		return
	}
	cw := box[2] / float64(len(rs))
	frame := color.RGBA{col.R, col.G, col.B, 200}
	for i, r := range rs {
		x := box[0] + float64(i)*cw
		if r != '/' && r != ' ' {
			px, py, pw, ph := c.px([4]float64{x + 0.15, box[1], cw - 0.3, box[3]})
			pts := [][2]float64{{px, py}, {px + pw, py}, {px + pw, py + ph}, {px, py + ph}, {px, py}}
			c.p.strokePath(c.dst, pts, 0.18*c.s, frame)
		}
		c.textBox(string(r), [4]float64{x, box[1], cw, box[3]}, font, size, col, "c", 0, false, 0)
	}
}

// handOf returns the instance's ink and whether it writes words in
// title case, picked at the first handwritten value from its text (as
// fontOf picks a typeface) so that the draws after it do not shift. Real
// forms filled by hand are mostly in lower-case cursive, which the
// italic face's Cyrillic small letters resemble; a quarter are in
// capitals.
func (c *drawCtx) handOf(val string) (color.RGBA, bool) {
	if c.hand == nil {
		r := NewRand(hashString(val), 0x4A4D)
		c.hand = &handStyle{ink: Pick(r, handInks), title: r.Bool(0.75)}
	}
	return c.hand.ink, c.hand.title
}

// titleCase writes each word of capitals with a capital and small
// letters ("ГОР. ЧЕЛЯБИНСК" becomes "Гор. Челябинск"); words with small
// letters, digits or a single letter are left as they are.
func titleCase(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		rs := []rune(w)
		letters, upper := 0, true
		for _, r := range rs {
			if unicode.IsLetter(r) {
				letters++
				upper = upper && unicode.IsUpper(r)
			}
		}
		if letters < 2 || !upper {
			continue
		}
		for k := 1; k < len(rs); k++ {
			rs[k] = unicode.ToLower(rs[k])
		}
		words[i] = string(rs)
	}
	return strings.Join(words, " ")
}

// fontOf returns the font key e draws val in. Font "value" is the
// instance's pick among the template's ValueFonts, drawn from the first
// such value's text rather than from c.r, so that adding value fonts to
// a template does not shift the draws that follow (seed-pinned renders
// keep their values).
func (c *drawCtx) fontOf(e *Element, val string) string {
	if e.Font != "value" {
		return e.Font
	}
	if c.valueFont == "" {
		fonts := c.t.ValueFonts
		if len(fonts) == 0 {
			return "sans-bold"
		}
		c.valueFont = fonts[NewRand(hashString(val)).Intn(len(fonts))]
	}
	return c.valueFont
}

// para fills the box with lines of filler text.
func (c *drawCtx) para(e *Element, v *docValues) {
	size := sizeOr(e.Size, 2)
	n := e.N
	if n == 0 {
		n = int(e.Box[3] / (size * 1.5))
	}
	lang := e.Gen
	if lang == "" {
		lang = "ru"
	}
	var lines []string
	for i := 0; i < n; i++ {
		words := int(e.Box[2] / (size * 3.2))
		if i == n-1 {
			words = words/2 + 1
		}
		lines = append(lines, filler(c.r, lang, words))
	}
	c.textBox(strings.Join(lines, "\n"), e.Box, e.Font, size, colorOr(e.Color, inkDark), e.Align, 0, e.Hand, 0)
}

func (c *drawCtx) rect(e *Element) {
	x, y, w, h := c.px(e.Box)
	if e.Fill != "" {
		pts := roundRectPts(x, y, w, h, e.Width*c.s)
		c.p.fillPoly(c.dst, pts, parseColor(e.Fill))
	}
	if e.Color != "" {
		lw := widthOr(e.Width, 0.2) * c.s
		if e.Fill != "" {
			lw = 0.2 * c.s
		}
		pts := [][2]float64{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}, {x, y}}
		c.p.strokePath(c.dst, pts, lw, parseColor(e.Color))
	}
}

// line draws a rule along the longer side of the box.
func (c *drawCtx) line(b [4]float64, col color.RGBA, wmm float64) {
	x, y, w, h := c.px(b)
	if w >= h {
		c.p.strokePath(c.dst, [][2]float64{{x, y + h/2}, {x + w, y + h/2}}, wmm*c.s, col)
	} else {
		c.p.strokePath(c.dst, [][2]float64{{x + w/2, y}, {x + w/2, y + h}}, wmm*c.s, col)
	}
}

// table draws a grid of N rows and M columns, with filler in the cells.
func (c *drawCtx) table(e *Element, v *docValues) {
	rows, cols := e.N, e.M
	if rows <= 0 {
		rows = 5
	}
	if cols <= 0 {
		cols = 4
	}
	b := e.Box
	col := colorOr(e.Color, inkDark)
	lw := widthOr(e.Width, 0.15)
	for i := 0; i <= rows; i++ {
		y := b[1] + b[3]*float64(i)/float64(rows)
		c.line([4]float64{b[0], y, b[2], 0}, col, lw)
	}
	for j := 0; j <= cols; j++ {
		x := b[0] + b[2]*float64(j)/float64(cols)
		c.line([4]float64{x, b[1], 0, b[3]}, col, lw)
	}
	size := sizeOr(e.Size, math.Min(2.2, b[3]/float64(rows)*0.5))
	cw, ch := b[2]/float64(cols), b[3]/float64(rows)
	lang := e.Gen
	if lang == "" {
		lang = "ru"
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			var s string
			switch {
			case i == 0:
				s = filler(c.r, lang, 1)
			case j == 0:
				s = pad2(i)
			case j >= cols-2:
				s = pattern(c.r, "zdd dd,dd")
			default:
				s = filler(c.r, lang, 2)
			}
			c.textBox(s, [4]float64{b[0] + float64(j)*cw + 0.6, b[1] + float64(i)*ch, cw - 1.2, ch}, e.Font, size, col, "l", 0, false, 0)
		}
	}
}
