package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"
)

// maxDocPx bounds the longer side of a rendered document in pixels.
const maxDocPx = 1100

// Doc is one rendered document, upright. Its alpha channel is the
// document's shape (rounded corners are transparent).
type Doc struct {
	Type string
	Img  *image.RGBA
	// Fields are the values printed, keyed by field name.
	Fields map[string]string
	// Boxes are the field boxes as fractions of the document
	// (x0, y0, x1, y1), keyed like Fields.
	Boxes map[string][4]float64
	// Special is true for other, not_document and empty: never turned.
	Special bool
	// Paperlike marks thin paper.
	Paperlike bool
	// PxPerMM is the rendering resolution.
	PxPerMM float64
}

// Renderer draws documents from templates. It is safe for concurrent use;
// each goroutine passes its own painter.
type Renderer struct {
	cat   *Catalogue
	fonts *Fonts
	mu    sync.Mutex
	bgs   map[string]*bgEntry
	// vary is the strength of print variation (Effects.Print): 0 draws
	// every instance exactly where its template says.
	vary float64
	// specimen is the chance factor of specimen marks (Effects.Specimen).
	specimen float64
}

type bgEntry struct {
	once sync.Once
	img  *image.RGBA
}

// NewRenderer makes a renderer over a catalogue and fonts.
func NewRenderer(cat *Catalogue, fonts *Fonts) *Renderer {
	return &Renderer{cat: cat, fonts: fonts, bgs: map[string]*bgEntry{}}
}

// Catalogue returns the templates the renderer draws from.
func (rd *Renderer) Catalogue() *Catalogue { return rd.cat }

func docScale(t *Template) float64 {
	return math.Min(8, maxDocPx/math.Max(t.SizeMM[0], t.SizeMM[1]))
}

// background returns the cached paper, patterns and static elements.
func (rd *Renderer) background(key string, t *Template, p *painter) *image.RGBA {
	rd.mu.Lock()
	e, ok := rd.bgs[key]
	if !ok {
		e = &bgEntry{}
		rd.bgs[key] = e
	}
	rd.mu.Unlock()
	e.once.Do(func() { e.img = rd.drawBackground(t, p) })
	return e.img
}

func (rd *Renderer) drawBackground(t *Template, p *painter) *image.RGBA {
	s := docScale(t)
	w, h := int(math.Round(t.SizeMM[0]*s)), int(math.Round(t.SizeMM[1]*s))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	paper := colorOr(t.Paper, color.RGBA{246, 244, 238, 255})
	fillRect(img, img.Rect, paper)
	if t.Paper2 != "" {
		dir := t.Gradient
		ang := map[string]float64{"h": 0, "v": 90, "d": 35}[dir]
		p.drawPattern(img, Pattern{Kind: "gradient", Color: t.Paper, Color2: t.Paper2, Alpha: 1, Angle: ang}, s)
	}
	for _, pt := range t.Patterns {
		p.drawPattern(img, pt, s)
	}
	ctx := &drawCtx{p: p, dst: img, s: s, t: t}
	for i := range t.Elements {
		e := &t.Elements[i]
		if e.Static() {
			ctx.element(e, nil, nil)
		}
	}
	applyCorners(img, t.CornerMM*s)
	return img
}

// applyCorners clears the alpha outside rounded corners of radius rad.
func applyCorners(img *image.RGBA, rad float64) {
	if rad <= 0 {
		return
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	n := int(math.Ceil(rad))
	for y := 0; y < n && y < h; y++ {
		for x := 0; x < n && x < w; x++ {
			dx, dy := rad-(float64(x)+0.5), rad-(float64(y)+0.5)
			cov := clamp(rad-math.Hypot(dx, dy)+0.5, 0, 1)
			if cov >= 1 {
				continue
			}
			for _, q := range [][2]int{{x, y}, {w - 1 - x, y}, {x, h - 1 - y}, {w - 1 - x, h - 1 - y}} {
				i := img.PixOffset(q[0], q[1])
				img.Pix[i+3] = uint8(float64(img.Pix[i+3]) * cov)
			}
		}
	}
}

// Render draws one instance of template t.
func (rd *Renderer) Render(t *Template, r *Rand, p *painter) (*Doc, error) {
	if len(t.Variants) > 0 {
		return rd.renderVariant(t, r, p)
	}
	if len(t.Forms) > 0 && r.Bool(t.FormProb) {
		name := Pick(r, t.Forms)
		base, ok := rd.cat.Get(name)
		if !ok {
			return nil, fmt.Errorf("synth: %s: unknown form %q", t.Type, name)
		}
		f := *base
		f.Type, f.Forms = t.Type, nil
		return rd.renderWithBackground(&f, name, r, p)
	}
	return rd.renderWithBackground(t, t.Type, r, p)
}

// renderWithBackground draws an instance over the background cached
// under key.
func (rd *Renderer) renderWithBackground(t *Template, key string, r *Rand, p *painter) (*Doc, error) {
	if t.SizeMM[0] <= 0 || t.SizeMM[1] <= 0 {
		return nil, fmt.Errorf("synth: template %q has no size", t.Type)
	}
	return rd.renderOver(t, rd.background(key, t, p), r, p), nil
}

// renderOver draws the dynamic elements of an instance of t over a copy
// of its background bg.
func (rd *Renderer) renderOver(t *Template, bg *image.RGBA, r *Rand, p *painter) *Doc {
	img := image.NewRGBA(bg.Rect)
	copy(img.Pix, bg.Pix)
	s := docScale(t)
	vals := newDocValues(r.Child(1), t)
	doc := &Doc{Type: t.Type, Img: img, Fields: map[string]string{}, Boxes: map[string][4]float64{}, Paperlike: t.Paperlike, PxPerMM: s}
	ctx := &drawCtx{p: p, dst: img, s: s, t: t, r: r.Child(2)}
	if rd.vary > 0 {
		ctx.varyPrint(r.Child(3), rd.vary)
	}
	for i := range t.Elements {
		e := &t.Elements[i]
		if e.Static() {
			continue
		}
		if e.Prob > 0 && !ctx.r.Bool(e.Prob) {
			continue
		}
		ctx.element(e, vals, doc)
	}
	if rd.specimen > 0 {
		ctx.specimenMark(r.Child(4), rd.specimen)
	}
	// keep the shape's alpha: dynamic ink must not fill transparent corners
	for i := 3; i < len(img.Pix); i += 4 {
		if bg.Pix[i] < 255 {
			img.Pix[i] = bg.Pix[i]
		}
	}
	if t.Half != nil && r.Bool(t.HalfProb) {
		doc = cropDoc(doc, *t.Half, s, t.SizeMM)
	}
	return doc
}

// cropDoc keeps only the part box (mm) of a document, and the fields
// whose boxes lie inside it.
func cropDoc(d *Doc, box [4]float64, s float64, size [2]float64) *Doc {
	r := image.Rect(int(box[0]*s), int(box[1]*s), int((box[0]+box[2])*s), int((box[1]+box[3])*s)).Intersect(d.Img.Rect)
	img := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		copy(img.Pix[y*img.Stride:y*img.Stride+4*r.Dx()], d.Img.Pix[d.Img.PixOffset(r.Min.X, r.Min.Y+y):])
	}
	out := &Doc{Type: d.Type, Img: img, Fields: map[string]string{}, Boxes: map[string][4]float64{}, Paperlike: d.Paperlike, PxPerMM: d.PxPerMM}
	fx0, fy0 := box[0]/size[0], box[1]/size[1]
	fw, fh := box[2]/size[0], box[3]/size[1]
	for k, b := range d.Boxes {
		if b[0] >= fx0-1e-6 && b[1] >= fy0-1e-6 && b[2] <= fx0+fw+1e-6 && b[3] <= fy0+fh+1e-6 {
			out.Fields[k] = d.Fields[k]
			out.Boxes[k] = [4]float64{(b[0] - fx0) / fw, (b[1] - fy0) / fh, (b[2] - fx0) / fw, (b[3] - fy0) / fh}
		}
	}
	return out
}

// renderVariant draws a template picked among t.Variants (used by other),
// re-tinted so that every instance looks different. A share
// t.Procedural of the instances is instead laid out at random by
// ProceduralOther and drawn without caching its background.
func (rd *Renderer) renderVariant(t *Template, r *Rand, p *painter) (*Doc, error) {
	if t.Procedural > 0 && r.Bool(t.Procedural) {
		v := ProceduralOther(r.Child(0x0A7E))
		v.Type = t.Type
		return rd.renderOver(v, rd.drawBackground(v, p), r, p), nil
	}
	name := Pick(r, t.Variants)
	base, ok := rd.cat.Get(name)
	if !ok {
		return nil, fmt.Errorf("synth: %s: unknown variant %q", t.Type, name)
	}
	v := *base
	v.Type = t.Type
	v.Values = base.Values
	if base.Retint {
		// A few cached tints per variant keep the cache small.
		tint := r.Intn(3)
		deg := float64(tint) * 120
		v.Paper = retint(base.Paper, deg)
		v.Paper2 = retint(base.Paper2, deg)
		v.Patterns = append([]Pattern(nil), base.Patterns...)
		for i := range v.Patterns {
			v.Patterns[i].Color = retint(v.Patterns[i].Color, deg)
			v.Patterns[i].Color2 = retint(v.Patterns[i].Color2, deg)
		}
		v.Elements = append([]Element(nil), base.Elements...)
		for i := range v.Elements {
			v.Elements[i].Fill = retint(v.Elements[i].Fill, deg)
		}
		name = fmt.Sprintf("%s#%d", name, tint)
	}
	v.Variants = nil
	return rd.renderWithBackground(&v, name, r, p)
}

func retint(c string, deg float64) string {
	if c == "" {
		return ""
	}
	rgba := hueShift(parseColor(c), deg, 1)
	return fmt.Sprintf("#%02x%02x%02x%02x", rgba.R, rgba.G, rgba.B, rgba.A)
}
