package synth

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"

	"docsuite/pkg/doctypes"
)

// printVariation is how one printed instance strays from its template.
// Real documents are filled by printers that feed each blank a little
// differently and by clerks who glue photos by hand; a model that saw
// every value at the template's exact place learns the template's
// pixels instead of the document, and calls a real one "other".
type printVariation struct {
	// shift moves every value of the instance together (mm), as a
	// printer's feed offset does; r adds each value's own small wobble.
	shift [2]float64
	r     *Rand
	// photoScale and photoShift place the glued photo: larger than the
	// template's box (covering its frame) and lower or aside.
	photoScale float64
	photoShift [2]float64
}

// varyPrint draws the instance's variation at strength k (Effects.Print)
// from r, a stream of its own.
func (c *drawCtx) varyPrint(r *Rand, k float64) {
	v := &printVariation{r: r, photoScale: 1}
	v.shift = [2]float64{r.Range(-1.2, 1.2) * k, r.Range(-0.7, 0.7) * k}
	if r.Bool(0.5) {
		v.photoScale = 1 + r.Range(0, 0.15)*k
		v.photoShift = [2]float64{r.Range(-1.5, 1.5) * k, r.Range(0, 2.5) * k}
	}
	c.vary = v
}

// field returns e with its box moved by the instance's shift and the
// value's own wobble (a copy; the template is shared). Without
// variation it returns e.
func (v *printVariation) field(e *Element) *Element {
	if v == nil {
		return e
	}
	f := *e
	f.Box[0] += v.shift[0] + v.r.Range(-0.3, 0.3)
	f.Box[1] += v.shift[1] + v.r.Range(-0.2, 0.2)
	return &f
}

// photo returns e with its box grown and moved as the instance's photo
// was glued (a copy), or e without variation.
func (v *printVariation) photo(e *Element) *Element {
	if v == nil || v.photoScale == 1 {
		return e
	}
	f := *e
	w, h := e.Box[2]*v.photoScale, e.Box[3]*v.photoScale
	f.Box = [4]float64{e.Box[0] - (w-e.Box[2])/2 + v.photoShift[0], e.Box[1] + v.photoShift[1], w, h}
	return &f
}

// booklet reports whether documents of type t are pages of a passport
// booklet, photographed or scanned open inside its cover.
func booklet(t string) bool {
	return strings.Contains(t, "passport") && !strings.HasPrefix(t, "digital_vehicle") && !doctypes.IsSpecial(t)
}

// coverPad returns d inside an open booklet's cover: a dark leatherette
// margin of a few millimetres (wider on some sides than others, as the
// pages sit off-centre in a worn cover) with rounded corners. The crop
// of such a photo holds the cover; the classifier must still see the
// passport. Field boxes are remapped to the larger image.
func coverPad(d *Doc, r *Rand) *Doc {
	s := d.PxPerMM
	var m [4]int // left, top, right, bottom (px)
	for i := range m {
		m[i] = int(r.Range(1.5, 6) * s)
	}
	w0, h0 := d.Img.Rect.Dx(), d.Img.Rect.Dy()
	W, H := w0+m[0]+m[2], h0+m[1]+m[3]
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	hue := Pick(r, coverHues)
	base := hsl(hue, r.Range(0.2, 0.6), r.Range(0.06, 0.22), 255)
	if r.Bool(0.35) { // black leather slip covers are the commonest of all
		l := uint8(r.Range(10, 40))
		base = color.RGBA{l, l, l + uint8(r.Range(0, 8)), 255}
	}
	grain := r.Range(4, 14)
	gr := r.Child(1)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			n := int(gr.Norm() * grain)
			i := img.PixOffset(x, y)
			img.Pix[i] = clampByte(int(base.R) + n)
			img.Pix[i+1] = clampByte(int(base.G) + n)
			img.Pix[i+2] = clampByte(int(base.B) + n)
			img.Pix[i+3] = 255
		}
	}
	applyCorners(img, math.Min(float64(W), float64(H))*r.Range(0.03, 0.07))
	draw.Draw(img, image.Rect(m[0], m[1], m[0]+w0, m[1]+h0), d.Img, d.Img.Rect.Min, draw.Over)
	out := *d
	out.Img = img
	out.Boxes = make(map[string][4]float64, len(d.Boxes))
	fw, fh := float64(w0)/float64(W), float64(h0)/float64(H)
	ox, oy := float64(m[0])/float64(W), float64(m[1])/float64(H)
	for k, b := range d.Boxes {
		out.Boxes[k] = [4]float64{ox + b[0]*fw, oy + b[1]*fh, ox + b[2]*fw, oy + b[3]*fh}
	}
	out.Paperlike = false
	return &out
}
