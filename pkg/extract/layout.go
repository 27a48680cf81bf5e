package extract

import (
	"fmt"
	"image"
	"math"

	"docsuite/pkg/mrz"
	"docsuite/pkg/synth"
)

// layout is where a form's fields lie, in millimetres of the upright
// document (origin top-left), and where its machine-readable zone is.
type layout struct {
	size   [2]float64
	half   [4]float64            // the part shown when only one page is photographed
	fields map[string][4]float64 // x, y, w, h
	vert   map[string]bool       // fields printed turned 90° counter-clockwise
	mrz    [4]float64
}

func newLayout(t *synth.Template) (*layout, error) {
	l := &layout{size: t.SizeMM, fields: map[string][4]float64{}, vert: map[string]bool{}}
	if t.Half != nil {
		l.half = *t.Half
	}
	for _, e := range t.Elements {
		name := e.Field
		if name == "" && e.Kind == "field" {
			name = e.Gen
		}
		switch {
		case e.Kind == "mrz":
			l.mrz = e.Box
		case e.Kind == "field" && name != "":
			// Of a field printed twice (the series on both pages), keep the
			// lower one: it is on the page with the zone, shown also alone.
			if old, ok := l.fields[name]; !ok || e.Box[1] > old[1] {
				l.fields[name] = e.Box
				l.vert[name] = e.Rotate != 0
			}
		}
	}
	if l.mrz[2] <= 0 || l.size[0] <= 0 {
		return nil, fmt.Errorf("extract: template %s has no size or machine-readable zone", t.Type)
	}
	return l, nil
}

// placement maps template millimetres to crop pixels: x' = S*x + TX,
// y' = SY*y + TY.
type placement struct {
	S, SY, TX, TY float64
}

// fromMRZ places the template by the zone read on the crop: the
// character grid gives the horizontal scale and offset, the first line
// the vertical offset. The vertical scale is the distance from the crop's
// top edge to the zone (the crop is the whole spread, or the lower page
// alone: whichever agrees with the horizontal scale), which holds over
// the whole height better than the zone's own line spacing.
func (l *layout) fromMRZ(rd *mrz.Reading, b image.Rectangle) (placement, bool) {
	if rd == nil || len(rd.Rects) != 2 || rd.Pitch <= 0 {
		return placement{}, false
	}
	n := float64(len(rd.Lines[0]))
	pitchMM := l.mrz[2] / n
	s := rd.Pitch / pitchMM
	lh := l.mrz[3] / 2
	c0 := float64(rd.Rects[0].Min.Y+rd.Rects[0].Max.Y) / 2
	y0 := l.mrz[1] + lh*0.55 // centre of the zone's first line, mm
	sy := s
	for _, top := range []float64{0, l.half[1]} {
		if y0-top <= 0 {
			continue
		}
		if c := (c0 - float64(b.Min.Y)) / (y0 - top); c > 0.93*s && c < 1.07*s {
			sy = c
			break
		}
	}
	p := placement{S: s, SY: sy}
	p.TX = (rd.Starts[0]+rd.Starts[1])/2 - s*(l.mrz[0]+pitchMM/2)
	p.TY = c0 - sy*y0
	return p, true
}

// fromCrop places the template over the whole crop: the full spread when
// the crop is taller than wide, the lower page alone otherwise.
func (l *layout) fromCrop(b image.Rectangle) placement {
	s := float64(b.Dx()) / l.size[0]
	p := placement{S: s, SY: s, TX: float64(b.Min.X), TY: float64(b.Min.Y)}
	if float64(b.Dy()) < float64(b.Dx())*1.1 && l.half[3] > 0 {
		s = math.Min(float64(b.Dx())/l.half[2], float64(b.Dy())/l.half[3])
		p = placement{S: s, SY: s, TX: float64(b.Min.X) - s*l.half[0], TY: float64(b.Min.Y) - s*l.half[1]}
	}
	return p
}

// rect is the field's region on the crop, grown by mx, my millimetres;
// ok is false when less than half of it lies on the crop.
func (p placement) rect(box [4]float64, mx, my float64, bounds image.Rectangle) (image.Rectangle, bool) {
	r := image.Rect(
		int(math.Floor(p.S*(box[0]-mx)+p.TX)), int(math.Floor(p.SY*(box[1]-my)+p.TY)),
		int(math.Ceil(p.S*(box[0]+box[2]+mx)+p.TX)), int(math.Ceil(p.SY*(box[1]+box[3]+my)+p.TY)),
	)
	in := r.Intersect(bounds)
	if in.Empty() || in.Dx()*in.Dy()*2 < r.Dx()*r.Dy() {
		return in, false
	}
	return in, true
}
