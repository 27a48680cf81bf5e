package synth

import (
	"context"
	"fmt"
	"image"
	"math"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// SceneDoc is the ground truth of one document in a scene.
type SceneDoc struct {
	Type string
	// Quad is TL, TR, BL, BR of the upright document in scene pixels
	// (for special classes: of the document as it lies).
	Quad geom.Quad
	// Lying is TL, TR, BL, BR of the document as it lies in the image,
	// the crop a cutter would make before orientation.
	Lying    geom.Quad
	Rotation geom.Rotation
	// Turn is the code the document was really turned with (equal to
	// Rotation except for special classes, which report 0).
	Turn   geom.Rotation
	Page   int
	Fields map[string]string
	Boxes  map[string][4]float64
}

// Scene is one generated image with its documents.
type Scene struct {
	Img     *image.RGBA
	Docs    []SceneDoc
	Quality int
	Scan    bool
	// Clutter lists the objects drawn on the table (no documents).
	Clutter []Clutter
}

// placed is a document positioned in a scene.
type placed struct {
	doc  *Doc
	turn geom.Rotation
	h    [9]float64
	quad geom.Quad
	ly   geom.Quad
}

// pickTypes chooses the document types of scene i: the first cycles
// through every type in a seed-shuffled order, so any run of len(types)
// scenes covers them all; the others are uniform.
func (g *Generator) pickTypes(i int, r *Rand, n int) []string {
	out := make([]string, n)
	out[0] = g.order[i%len(g.order)]
	for j := 1; j < n; j++ {
		out[j] = Pick(r, g.types)
	}
	return out
}

// Scene generates scene i of the configured seed.
func (g *Generator) Scene(ctx context.Context, i int) (*Scene, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := NewRand(g.cfg.Seed, uint64(i), 0x5CE4E)
	scan := r.Bool(g.cfg.ScanProb)
	W, H := g.sceneSize(r, scan, g.cfg.Size)
	return g.build(r, i, scan, W, H)
}

// build composes one scene of size W x H; i picks the first type.
func (g *Generator) build(r *Rand, i int, scan bool, W, H int) (*Scene, error) {
	p := g.painter()
	defer g.release(p)
	canvas := g.backdrop(r.Child(1), p, W, H, scan)
	n := g.docCount(r)
	types := g.pickTypes(i, r, n)
	docs := make([]*Doc, 0, n)
	for j, t := range types {
		if j > 0 && !scan && g.cfg.CoverProb > 0 && r.Child(uint64(8000+j)).Bool(g.cfg.CoverProb) {
			// Drawn from streams of their own: scenes made without covers
			// stay exactly as they were.
			docs = append(docs, g.coverDoc(r.Child(uint64(8100+j)), p))
			continue
		}
		if t == doctypes.NotDocument {
			docs = append(docs, g.notDocument(r.Child(uint64(100+j)), p))
			continue
		}
		tpl, ok := g.rd.cat.Get(t)
		if !ok {
			return nil, fmt.Errorf("synth: no template for %q", t)
		}
		d, err := g.rd.Render(tpl, r.Child(uint64(100+j)), p)
		if err != nil {
			return nil, err
		}
		d.Special = doctypes.IsSpecial(t)
		if d.Paperlike && g.cfg.Effects.Bend > 0 && r.Bool(0.35*math.Min(1, g.cfg.Effects.Bend)) {
			addFolds(d.Img, r.Child(uint64(200+j)))
		}
		if k := g.cfg.Effects.Print; k > 0 && booklet(t) {
			// Drawn from a stream of its own, like covers and stacks.
			if cr := r.Child(uint64(9100 + j)); cr.Bool(0.3 * math.Min(1, k)) {
				d = coverPad(d, cr)
			}
		}
		docs = append(docs, d)
	}
	stack := false
	if g.cfg.StackProb > 0 && !scan && len(docs) > 1 {
		// Drawn from a stream of its own: scenes made without stacks
		// stay exactly as they were.
		stack = r.Child(7).Bool(g.cfg.StackProb)
	}
	pl, err := g.place(r.Child(2), docs, W, H, scan, stack)
	if err != nil {
		return nil, err
	}
	fx := g.cfg.Effects
	var clutter []Clutter
	if !scan && fx.Clutter > 0 && r.Bool(0.3*fx.Clutter) {
		clutter = drawClutter(p, canvas, r.Child(3), pl)
	}
	for _, d := range pl {
		if err := g.composite(canvas, d, r.Child(4), scan); err != nil {
			return nil, err
		}
	}
	if !scan && fx.Occlusion > 0 && r.Bool(0.3*fx.Occlusion) {
		drawFingers(p, canvas, r.Child(5), pl)
	}
	q, err := g.effects(canvas, r.Child(6), scan)
	if err != nil {
		return nil, err
	}
	sc := &Scene{Img: canvas, Quality: q, Scan: scan, Clutter: clutter}
	for _, d := range pl {
		sd := SceneDoc{Type: d.doc.Type, Quad: d.quad, Lying: d.ly, Rotation: d.turn, Turn: d.turn, Page: 1,
			Fields: d.doc.Fields, Boxes: d.doc.Boxes}
		if d.doc.Special {
			sd.Quad, sd.Rotation = d.ly, 0
		}
		sc.Docs = append(sc.Docs, sd)
	}
	return sc, nil
}

// docCount draws the number of documents: one most often, as in real
// photos, fewer scenes with more.
func (g *Generator) docCount(r *Rand) int {
	lo, hi := g.cfg.MinDocs, g.cfg.MaxDocs
	w := make([]float64, hi-lo+1)
	for k := range w {
		w[k] = 1 / math.Pow(float64(lo+k), 1.6)
	}
	return lo + r.Weighted(w)
}

func (g *Generator) sceneSize(r *Rand, scan bool, size int) (int, int) {
	L := float64(size)
	if scan {
		if r.Bool(0.75) {
			return int(L / 1.414), int(L)
		}
		return int(L), int(L / 1.414)
	}
	aspects := []float64{4.0 / 3, 3.0 / 4, 16.0 / 9, 9.0 / 16, 1, 3.0 / 2}
	a := aspects[r.Weighted([]float64{4, 3, 2, 1.5, 1, 1})]
	if a >= 1 {
		return int(L), int(L / a)
	}
	return int(L * a), int(L)
}

// minDocArea is the least area of a document the factory draws, as a
// share of the scene: the cropper does not look for documents under 0.6 %
// of the page (crop.Options.MinArea), an 80-pixel card cannot be
// classified, and users photograph the documents they send. The scene's
// scale is raised so that its smallest document is this large, and a
// document after the first that still comes out smaller (tilted, seen
// at a slant) or cannot be laid that large beside the others is left out.
const minDocArea = 0.01

// place draws orientation, size, angle and perspective of every document
// so that all corners lie inside the image, none is under minDocArea and
// overlaps stay limited. In a stack, every document after the first is
// laid near one already placed, on top of it: it covers at least a tenth
// of the smaller of the two and hides at most half of any document below
// (a fanned pile of booklets, a card on a form).
func (g *Generator) place(r *Rand, docs []*Doc, W, H int, scan, stack bool) ([]placed, error) {
	fx := g.cfg.Effects
	// one physical scale for the scene: the largest document fills frac
	// of the shorter side
	maxMM, minMM2 := 0.0, math.Inf(1)
	for _, d := range docs {
		maxMM = math.Max(maxMM, float64(max(d.Img.Rect.Dx(), d.Img.Rect.Dy()))/d.scale())
		minMM2 = math.Min(minMM2, float64(d.Img.Rect.Dx()*d.Img.Rect.Dy())/(d.scale()*d.scale()))
	}
	// No smaller than the smallest document at minDocArea of the scene,
	// with a tenth to spare for tilt and perspective.
	minPxmm := 1.1 * math.Sqrt(minDocArea*float64(W*H)/minMM2)
	short := float64(min(W, H))
	var frac float64
	switch {
	case scan:
		frac = r.Range(0.45, 0.9)
	case len(docs) == 1:
		frac = r.Range(0.45, 0.97)
	case len(docs) == 2:
		frac = r.Range(0.4, 0.66)
	default:
		frac = r.Range(0.3, 0.52)
	}
	var out []placed
	for k, d := range docs {
		ok := false
		for attempt := 0; attempt < 40 && !ok; attempt++ {
			pxmm := math.Max(minPxmm, frac*short/maxMM*math.Pow(0.93, float64(attempt/8))*r.Range(0.95, 1.05))
			var anchor *geom.Quad
			if stack && len(out) > 0 {
				anchor = &out[r.Intn(len(out))].quad
			}
			pd, err := g.placeAt(r, d, W, H, pxmm, scan, fx, anchor)
			if err != nil {
				return nil, err
			}
			// The first document is never left out for its size: it is
			// the one that cycles through the types (pickTypes).
			if !inside(pd.quad, float64(W), float64(H), 2) || (k > 0 && pd.quad.Area() < minDocArea*float64(W*H)) {
				continue
			}
			var okOverlap bool
			if anchor != nil {
				okOverlap = stacked(pd.quad, out)
			} else {
				okOverlap = apart(pd.quad, out, 0.18*fx.Overlap)
			}
			if okOverlap {
				out = append(out, pd)
				ok = true
			}
		}
	}
	if len(out) == 0 {
		// fall back: the first document alone, small and centred
		pd, err := g.placeOne(r, docs[0], W, H, 0.5*short/maxMM, true, Effects{})
		if err != nil {
			return nil, err
		}
		out = append(out, pd)
	}
	return out, nil
}

// apart reports whether q overlaps each placed document by at most lim of
// the smaller one's area.
func apart(q geom.Quad, out []placed, lim float64) bool {
	for _, o := range out {
		if geom.Overlap(q, o.quad) > lim*math.Min(q.Area(), o.quad.Area()) {
			return false
		}
	}
	return true
}

// stacked reports whether q, laid on top of the placed documents, covers
// at least a tenth of the smaller of q and one of them, and at most half
// of each.
func stacked(q geom.Quad, out []placed) bool {
	touches := false
	for _, o := range out {
		a := geom.Overlap(q, o.quad)
		if a > 0.5*o.quad.Area() {
			return false
		}
		touches = touches || a >= 0.1*math.Min(q.Area(), o.quad.Area())
	}
	return touches
}

func inside(q geom.Quad, W, H, m float64) bool {
	for _, p := range q {
		if p.X < m || p.Y < m || p.X > W-m || p.Y > H-m {
			return false
		}
	}
	return true
}

// scale is the document's pixels per mm.
func (d *Doc) scale() float64 {
	if d.PxPerMM > 0 {
		return d.PxPerMM
	}
	return 8
}

// placeOne computes one document's homography from upright pixels to
// the scene.
func (g *Generator) placeOne(r *Rand, d *Doc, W, H int, pxmm float64, scan bool, fx Effects) (placed, error) {
	return g.placeAt(r, d, W, H, pxmm, scan, fx, nil)
}

// placeAt is placeOne with the document's centre drawn near anchor's (a
// third to four fifths of the anchor's half-diagonal away, in any
// direction) when anchor is not nil.
func (g *Generator) placeAt(r *Rand, d *Doc, W, H int, pxmm float64, scan bool, fx Effects, anchor *geom.Quad) (placed, error) {
	w, h := float64(d.Img.Rect.Dx()), float64(d.Img.Rect.Dy())
	k := 0
	if r.Bool(math.Min(1, 0.5*fx.Turn)) {
		k = r.IntRange(1, 3)
	}
	mirror := r.Bool(math.Min(1, 0.06*fx.Mirror))
	turn := geom.NewRotation(k, mirror)
	inv := turn.Inverse()
	up := [4][2]float64{{0, 0}, {w, 0}, {0, h}, {w, h}}
	var lying [4][2]float64
	lw, lh := w, h
	for i, c := range up {
		pt, ww, hh := inv.MapPoint(geom.Point{X: c[0], Y: c[1]}, w, h)
		lying[i] = [2]float64{pt.X, pt.Y}
		lw, lh = ww, hh
	}
	s := pxmm / d.scale()
	alpha := r.Norm() * 0.12 * fx.Angle
	if r.Bool(0.25 * fx.Angle) {
		alpha = r.Range(-math.Pi/4, math.Pi/4) * math.Min(1, fx.Angle)
	}
	tx, ty := r.Range(-0.5, 0.5)*fx.Perspective*0.45, r.Range(-0.5, 0.5)*fx.Perspective*0.45
	if scan {
		alpha = r.Norm() * 0.02 * fx.Angle
		tx, ty = 0, 0
	}
	diag := math.Hypot(float64(W), float64(H))
	f := diag * r.Range(0.9, 2.0)
	sa, ca := math.Sincos(alpha)
	// size of the placed document to choose a centre that keeps it inside
	hw, hh := lw*s/2, lh*s/2
	ext := math.Abs(hw*ca) + math.Abs(hh*sa)
	eyt := math.Abs(hw*sa) + math.Abs(hh*ca)
	x0, x1 := math.Min(ext, float64(W)/2), math.Max(float64(W)-ext, float64(W)/2)
	y0, y1 := math.Min(eyt, float64(H)/2), math.Max(float64(H)-eyt, float64(H)/2)
	cx, cy := r.Range(x0, x1), r.Range(y0, y1)
	if anchor != nil {
		var ax, ay float64
		for _, p := range anchor {
			ax, ay = ax+p.X/4, ay+p.Y/4
		}
		reach := 0.5 * math.Hypot(anchor[3].X-anchor[0].X, anchor[3].Y-anchor[0].Y) * r.Range(0.33, 0.8)
		sb, cb := math.Sincos(r.Range(0, 2*math.Pi))
		cx = math.Max(x0, math.Min(x1, ax+reach*cb))
		cy = math.Max(y0, math.Min(y1, ay+reach*sb))
	}
	project := func(x, y float64) [2]float64 {
		X, Y := (x-lw/2)*s, (y-lh/2)*s
		X, Y = X*ca-Y*sa, X*sa+Y*ca
		// tilt about the x axis (ty) and the y axis (tx)
		Z := 0.0
		Y, Z = Y*math.Cos(ty), Y*math.Sin(ty)
		X, Z = X*math.Cos(tx), Z+X*math.Sin(tx)
		return [2]float64{cx + f*X/(f+Z), cy + f*Y/(f+Z)}
	}
	var dst [4][2]float64
	for i, c := range lying {
		dst[i] = project(c[0], c[1])
	}
	hm, err := homography(up, dst)
	if err != nil {
		return placed{}, err
	}
	pd := placed{doc: d, turn: turn, h: hm, quad: quadOf(hm, w, h)}
	// corners of the lying document: its own TL, TR, BL, BR
	lc := [4][2]float64{{0, 0}, {lw, 0}, {0, lh}, {lw, lh}}
	for i, c := range lc {
		q := project(c[0], c[1])
		pd.ly[i] = geom.Point{X: q[0], Y: q[1]}
	}
	return pd, nil
}
