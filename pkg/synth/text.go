package synth

import (
	"image"
	"image/color"
	"math"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// textStyle is how a string is drawn: font key, em size in pixels, ink,
// counter-clockwise rotation in radians, italic skew and letter spacing.
type textStyle struct {
	font    string
	size    float64
	col     color.RGBA
	rot     float64
	skew    float64
	spacing float64
	// squeeze scales glyphs horizontally (1 = natural width).
	squeeze float64
	// jitter, when set, draws the text as a hand would: each glyph a
	// little turned, scaled and off a baseline that wanders.
	jitter *Rand
}

// glyphRun is one positioned glyph of a laid-out string.
type glyphRun struct {
	f   *sfnt.Font
	idx sfnt.GlyphIndex
	x   float64
	dy  float64
	// rot (radians, about the glyph's origin) and scale are a
	// handwritten glyph's own turn and size; 0 and 0 mean none.
	rot, scale float64
}

// painter owns per-goroutine scratch state for drawing text and shapes.
type painter struct {
	fonts *Fonts
	buf   sfnt.Buffer
	ras   vector.Rasterizer
	mask  *image.Alpha
	org   image.Point
	runs  []glyphRun
}

func newPainter(f *Fonts) *painter { return &painter{fonts: f} }

// fontFor picks the font of key when it has r, else the first fallback.
func (p *painter) fontFor(key string, r rune) (*sfnt.Font, sfnt.GlyphIndex) {
	f := p.fonts.get(key)
	if idx, err := f.GlyphIndex(&p.buf, r); err == nil && idx != 0 && !p.fonts.broken[f][r] {
		return f, idx
	}
	if key == "ocr" {
		if mono := p.fonts.get("mono"); mono != nil {
			if idx, err := mono.GlyphIndex(&p.buf, r); err == nil && idx != 0 {
				return mono, idx
			}
		}
	}
	for _, k := range fallbackOrder {
		fb := p.fonts.byKey[k]
		if fb == nil {
			continue
		}
		if idx, err := fb.GlyphIndex(&p.buf, r); err == nil && idx != 0 {
			return fb, idx
		}
	}
	return f, 0
}

// layout positions the glyphs of s and returns the total advance.
func (p *painter) layout(s string, st textStyle) float64 {
	p.runs = p.runs[:0]
	ppem := fixed.Int26_6(st.size * 64)
	x := 0.0
	sq := st.squeeze
	if sq == 0 {
		sq = 1
	}
	rs := []rune(s)
	if hasRTL(rs) {
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
	}
	drift := 0.0 // a hand's baseline wanders rather than shakes
	for _, r := range rs {
		if r == '\n' {
			continue
		}
		f, idx := p.fontFor(st.font, r)
		adv, err := f.GlyphAdvance(&p.buf, idx, ppem, font.HintingNone)
		if err != nil {
			continue
		}
		g := glyphRun{f: f, idx: idx, x: x}
		if j := st.jitter; j != nil {
			drift = clamp(drift+j.Norm()*st.size*0.03, -st.size*0.12, st.size*0.12)
			g.dy = drift + j.Norm()*st.size*0.02
			g.rot = j.Norm() * 0.06
			g.scale = 1 + j.Norm()*0.07
		}
		if !unicode.IsSpace(r) {
			p.runs = append(p.runs, g)
		}
		step := float64(adv) / 64 * sq
		if g.scale != 0 {
			step *= g.scale
		}
		x += step + st.spacing
	}
	return x - st.spacing
}

func hasRTL(rs []rune) bool {
	for _, r := range rs {
		if r >= 0x0590 && r <= 0x08FF {
			return true
		}
	}
	return false
}

// measure returns the advance width of s in pixels.
func (p *painter) measure(s string, st textStyle) float64 { return p.layout(s, st) }

// drawText draws s with its baseline origin at (x, y) in dst pixels. The
// rotation turns the text around the origin.
func (p *painter) drawText(dst *image.RGBA, s string, x, y float64, st textStyle) {
	w := p.layout(s, st)
	if len(p.runs) == 0 || st.size < 1 {
		return
	}
	sin, cos := math.Sincos(-st.rot)
	// Bounding box of the text in its own frame: [0,w] x [-asc, desc].
	asc, desc := st.size*1.05, st.size*0.4
	var minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [][2]float64{{-st.size * 0.3, -asc}, {w + st.size*0.3, -asc}, {-st.size * 0.3, desc}, {w + st.size*0.3, desc}} {
		tx := x + c[0]*cos - c[1]*sin
		ty := y + c[0]*sin + c[1]*cos
		minX, maxX = math.Min(minX, tx), math.Max(maxX, tx)
		minY, maxY = math.Min(minY, ty), math.Max(maxY, ty)
	}
	r := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
	if r.Intersect(dst.Bounds()).Empty() {
		return
	}
	p.begin(r)
	tf := func(gx, gy float64) (float64, float64) {
		gx += st.skew * -gy
		return x + gx*cos - gy*sin, y + gx*sin + gy*cos
	}
	ppem := fixed.Int26_6(st.size * 64)
	sq := st.squeeze
	if sq == 0 {
		sq = 1
	}
	for _, g := range p.runs {
		segs, err := g.f.LoadGlyph(&p.buf, g.idx, ppem, nil)
		if err != nil {
			continue
		}
		gs, gc, sc := 0.0, 1.0, 1.0
		if g.scale != 0 {
			gs, gc = math.Sincos(g.rot)
			sc = g.scale
		}
		for _, sg := range segs {
			pt := func(i int) (float64, float64) {
				lx, ly := float64(sg.Args[i].X)/64*sq, float64(sg.Args[i].Y)/64
				lx, ly = sc*(lx*gc-ly*gs), sc*(lx*gs+ly*gc)
				return tf(g.x+lx, g.dy+ly)
			}
			switch sg.Op {
			case sfnt.SegmentOpMoveTo:
				p.moveTo(pt(0))
			case sfnt.SegmentOpLineTo:
				p.lineTo(pt(0))
			case sfnt.SegmentOpQuadTo:
				ax, ay := pt(0)
				bx, by := pt(1)
				p.quadTo(ax, ay, bx, by)
			case sfnt.SegmentOpCubeTo:
				ax, ay := pt(0)
				bx, by := pt(1)
				cx, cy := pt(2)
				p.cubeTo(ax, ay, bx, by, cx, cy)
			}
		}
		p.ras.ClosePath()
	}
	p.fill(dst, st.col)
}
