package crop

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"slices"

	"docsuite/pkg/onnxrt"
)

// ModelName is the neural cropper's entry in models/manifest.json.
const ModelName = "cropnet"

// NeuralOptions tunes the neural cropper. Zero fields take the defaults.
type NeuralOptions struct {
	// Threshold is the probability above which a pixel counts as document
	// interior (default 0.5).
	Threshold float64
	// OutlineThreshold is the probability above which a pixel counts as a
	// document outline (default 0.5; documents whose faint outline leaves
	// a gap where they touch are eroded apart, see SplitFill).
	OutlineThreshold float64
	// Erode is how many pixels the regions are eroded by before they are
	// told apart (default 1; negative: none).
	Erode int
	// MinArea is the smallest document area as a fraction of the page
	// (default 0.006).
	MinArea float64
	// EdgeMinArea is the smallest area, as a fraction of the page, of a
	// document the frame cuts off (default 0.03; negative: any): a smaller
	// piece at the frame is a corner of something the photograph cuts
	// off, or a margin of a document filling the frame, too little of it
	// to name (cutByFrame).
	EdgeMinArea float64
	// MaxArea is the largest document area as a fraction of the page; a
	// quad covering more is the page itself (default 0.97).
	MaxArea float64
	// MaxAspect is the largest ratio of a document's long side to its short
	// side (default 6).
	MaxAspect float64
	// MinFill is the smallest share of a document's quad its segmented
	// region must cover (default 0.7): a hand or a cable fills its quad
	// poorly; an overlapped document or one crossed by a dark line covers
	// less than a clean one.
	MinFill float64
	// OutlinedFill is the smaller share a region may fill when the network
	// sees its outline along at least 80 % of its sides and believes in its
	// interior (mean probability 0.9 or more; default 0.55): a small card's
	// core at the network's 320 pixels loses its rounded corners and its
	// outline band, and fills its quadrilateral less than a large one.
	OutlinedFill float64
	// MinScore is the smallest mean interior probability over a document's
	// region (default 0.72): fragments the network half believes in (text
	// blocks of a page-filling document) fall below it.
	MinScore float64
	// MinOutline is the smallest share of a document's sides along which
	// the network sees an outline (default 0.5): blocks inside a document
	// that fills the frame have interior around them, not an outline.
	MinOutline float64
	// PageFill is the share of the page that, when covered by document
	// interior, makes the page itself the one document (default 0.5): a
	// scan or a tight crop, whose photo and text blocks are not documents.
	PageFill float64
	// PageSplit is the share of that interior the documents found must
	// cover, together, for such a page to be several documents rather
	// than one (default 0.9), none of them running to the frame unless
	// the network outlines it all round: two cards filling most of a
	// small table are two documents; the photo and text blocks of a scan
	// are not.
	PageSplit float64
	// MergeFill is how well two touching pieces must together fill their
	// enclosing quadrilateral to count as one document (default 0.9).
	MergeFill float64
	// SplitFill is how well a region must fill its enclosing quadrilateral
	// to be taken as it is (default 0.7, as MinFill); a region filling it less is
	// eroded further, up to MaxSplit pixels, to come apart into the
	// documents it joins (see splitter.decompose).
	SplitFill float64
	// MaxSplit is the most pixels a region is eroded by in all (default 4;
	// at most Erode: no splitting).
	MaxSplit int
	// SplitGain is how much better the parts of an eroded region must fill
	// their quadrilaterals, weighted by area, to replace it (default 0.02).
	SplitGain float64
	// CutFill is how well a region must fill its enclosing quadrilateral
	// to be taken without looking for fainter outlines inside it (default
	// 0.93): two documents of one colour overlapping or lying edge to edge
	// are often parted only by an outline the network half sees.
	CutFill float64
	// CutOutlines are the lower outline thresholds tried, in turn, to cut
	// such a region apart (a region is cut where the
	// parts fill their quadrilaterals, weighted by area, CutGain better;
	// default 0.25, chosen on the tuning seed 4404).
	CutOutlines []float64
	// CutGain is how much better the parts of a cut region must fill their
	// quadrilaterals, weighted by area, to replace it (default 0.04).
	CutGain float64
	// NoJoin keeps apart the two pieces of a document crossed by an
	// occluder (see joinOccluded), for comparison.
	NoJoin bool
	// NoChords turns off the cutting of a region along a chord between
	// its notches (see splitter.chordSplit), for comparison.
	NoChords bool
	// ZoomMin is how many times larger a second look must see the part of
	// the page that holds all the document interior the first look found
	// (with a margin) for that second look to be taken (default 2;
	// negative: never). Small cards far from the camera are a few network
	// pixels wide at the page's scale; letterboxed on its own, the part
	// shows them larger. When the second look finds documents, its
	// answer replaces the first's.
	ZoomMin float64
	// ZoomMargin is the margin added around that part, as a share of its
	// longer side (default 0.1).
	ZoomMargin float64
	// DoubtThreshold is the interior probability above which a faint
	// region of the first look that no document found covers gets a
	// closer look of its own (default 0.25; see lookCloser): a small card
	// beside a large document, which the second look (ZoomMin) cannot
	// bring closer, is often only half seen at the network's 320 pixels.
	DoubtThreshold float64
	// DoubtMargin is the margin around such a region its closer look
	// takes, as a share of the region's longer side (default 2), within
	// what a ZoomMin times closer look allows.
	DoubtMargin float64
	// DoubtLooks is the most closer looks a page gets (default 1;
	// negative: none). The largest faint region is looked at first.
	DoubtLooks int
	// MaxDocs caps the number of documents returned (default 8).
	MaxDocs int
	// NoRefine keeps the quads as the network's masks give them, without
	// moving the sides onto the edges at full resolution (for evaluation).
	NoRefine bool
	// NoSides keeps each region's enclosing quadrilateral, without looking
	// for its straight sides (sidesQuad).
	NoSides bool
}

func (o NeuralOptions) withDefaults() NeuralOptions {
	if o.Threshold <= 0 {
		o.Threshold = 0.5
	}
	if o.OutlineThreshold <= 0 {
		o.OutlineThreshold = 0.5
	}
	switch {
	case o.Erode == 0:
		o.Erode = 1
	case o.Erode < 0:
		o.Erode = 0
	}
	if o.MinArea <= 0 {
		o.MinArea = 0.006
	}
	if o.EdgeMinArea == 0 {
		o.EdgeMinArea = 0.03
	}
	if o.MaxArea <= 0 {
		o.MaxArea = 0.97
	}
	if o.MaxAspect <= 0 {
		o.MaxAspect = 6
	}
	if o.MinFill <= 0 {
		o.MinFill = 0.7
	}
	if o.OutlinedFill <= 0 {
		o.OutlinedFill = 0.55
	}
	if o.MinScore <= 0 {
		o.MinScore = 0.72
	}
	if o.MinOutline <= 0 {
		o.MinOutline = 0.5
	}
	if o.PageFill <= 0 {
		o.PageFill = 0.5
	}
	if o.PageSplit <= 0 {
		o.PageSplit = 0.9
	}
	if o.MergeFill <= 0 {
		o.MergeFill = 0.9
	}
	if o.SplitFill <= 0 {
		o.SplitFill = 0.7
	}
	if o.MaxSplit <= 0 {
		o.MaxSplit = 4
	}
	if o.SplitGain <= 0 {
		o.SplitGain = 0.02
	}
	if o.CutFill == 0 {
		o.CutFill = 0.93
	}
	if o.CutOutlines == nil {
		o.CutOutlines = []float64{0.25}
	}
	if o.CutGain <= 0 {
		o.CutGain = 0.04
	}
	if o.ZoomMin == 0 {
		o.ZoomMin = 2
	}
	if o.ZoomMargin <= 0 {
		o.ZoomMargin = 0.1
	}
	if o.DoubtThreshold <= 0 {
		o.DoubtThreshold = 0.25
	}
	if o.DoubtMargin <= 0 {
		o.DoubtMargin = 2
	}
	switch {
	case o.DoubtLooks == 0:
		o.DoubtLooks = 1
	case o.DoubtLooks < 0:
		o.DoubtLooks = 0
	}
	if o.MaxDocs <= 0 {
		o.MaxDocs = 8
	}
	return o
}

// NeuralConfig says where the model and ONNX Runtime are.
type NeuralConfig struct {
	// Dir holds manifest.json and cropnet.onnx (see onnxrt.LoadManifest).
	Dir string
	// Library, Threads, AllowGPU and Log configure ONNX Runtime (see
	// onnxrt.Options).
	Library  string
	Threads  int
	AllowGPU bool
	Log      *slog.Logger
	// Options tunes the post-processing.
	Options NeuralOptions
}

// Neural is the neural cropper: cropnet (a small segmentation network
// trained on the document factory's scenes, scripts/train_cropnet.py) run
// through ONNX Runtime predicts document interior and outline maps on the
// page letterboxed to its input size (320 x 320 in models/manifest.json); each connected region of interior minus
// outline is one document, whose quadrilateral is fitted at that
// resolution and refined on the edges at full resolution. When the
// documents lie in a small part of the page, the network looks again at
// that part alone (see NeuralOptions.ZoomMin). It is safe for concurrent
// use.
type Neural struct {
	sess *onnxrt.Session
	rt   *onnxrt.Runtime
	opts NeuralOptions
	size int
}

// ErrBadCropModel reports a cropnet manifest entry the cropper cannot use.
var ErrBadCropModel = errors.New("crop: cropnet model does not have the expected input and output")

// OpenNeural loads cropnet from the manifest in cfg.Dir (checking its
// sha256) into a new ONNX Runtime session.
func OpenNeural(cfg NeuralConfig) (*Neural, error) {
	sess, rt, err := onnxrt.OpenModel(onnxrt.Options{Library: cfg.Library, Threads: cfg.Threads, AllowGPU: cfg.AllowGPU, Log: cfg.Log},
		cfg.Dir, ModelName)
	if err != nil {
		return nil, fmt.Errorf("crop: open neural cropper: %w", err)
	}
	n := &Neural{sess: sess, rt: rt, opts: cfg.Options.withDefaults()}
	spec := sess.Spec()
	if err := checkSpec(spec); err != nil {
		_ = n.Close()
		return nil, err
	}
	n.size = spec.Input.Width
	return n, nil
}

func checkSpec(spec onnxrt.ModelSpec) error {
	h, err := spec.Head("masks")
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrBadCropModel, err)
	case !slices.Equal(h.Classes, []string{"interior", "boundary"}):
		return fmt.Errorf("%w: masks are %v, want [interior boundary]", ErrBadCropModel, h.Classes)
	case spec.Input.Width != spec.Input.Height || spec.Input.Width < 32:
		return fmt.Errorf("%w: input %dx%d is not a square letterbox", ErrBadCropModel, spec.Input.Width, spec.Input.Height)
	}
	return nil
}

// Close releases the session and the runtime.
func (n *Neural) Close() error {
	err := n.sess.Close()
	if e := n.rt.Close(); err == nil {
		err = e
	}
	return err
}

// Find returns the documents on a page, largest first, or an empty slice
// when nothing document-like is found (the caller then treats the whole
// page as one item). A second, closer look replaces the first when it
// finds documents (ZoomMin).
func (n *Neural) Find(ctx context.Context, img image.Image) ([]Found, error) {
	b := img.Bounds()
	if b.Dx() < 16 || b.Dy() < 16 {
		return nil, nil
	}
	regions, lb, interior, err := n.look(ctx, img, n.opts)
	if err != nil {
		return nil, err
	}
	found := placed(regions, lb, b, b)
	if win, ok := zoomWindow(interior, n.size, lb, b, n.opts); ok {
		if si, ok := img.(subImager); ok {
			sub := si.SubImage(win)
			zr, zlb, _, err := n.look(ctx, sub, n.opts)
			if err != nil {
				return nil, err
			}
			if len(zr) > 0 {
				found = placed(zr, zlb, sub.Bounds(), b)
			}
		}
	}
	if found, err = n.lookCloser(ctx, img, interior, lb, found); err != nil {
		return nil, err
	}
	if !n.opts.NoRefine && len(found) > 0 {
		lum := lumaOf(img)
		for i := range found {
			found[i].Quad = refine(lum, found[i].Quad, found[i].scale, b.Dx(), b.Dy())
		}
	}
	found = joinFolds(found)
	out := make([]Found, len(found))
	for i, f := range found {
		for j := range f.Quad {
			f.Quad[j].X += float64(b.Min.X)
			f.Quad[j].Y += float64(b.Min.Y)
		}
		out[i] = Found{Quad: f.Quad, Score: f.Score}
	}
	return out, nil
}

// placedRegion is a document found by one look, in page pixels from the
// page's top-left corner, with the page pixels per network pixel of that
// look.
type placedRegion struct {
	Found
	scale float64
}

// placed maps the regions a look at view (a part of page, or all of it)
// found in its letterbox lb to page pixels.
func placed(regions []region, lb letterboxed, view, page image.Rectangle) []placedRegion {
	sx, sy := float64(view.Dx())/float64(lb.w), float64(view.Dy())/float64(lb.h)
	out := make([]placedRegion, 0, len(regions))
	for _, r := range regions {
		q := r.quad
		for i := range q {
			q[i].X = q[i].X*sx + float64(view.Min.X-page.Min.X)
			q[i].Y = q[i].Y*sy + float64(view.Min.Y-page.Min.Y)
		}
		out = append(out, placedRegion{Found: Found{Quad: q, Score: r.score}, scale: (sx + sy) / 2})
	}
	return out
}

// subImager is an image a rectangle of which can be taken without a copy.
type subImager interface {
	SubImage(r image.Rectangle) image.Image
}

// look runs cropnet on img letterboxed and returns the documents it finds
// with options o (in the letterbox's pixels), the letterbox and the
// interior map.
func (n *Neural) look(ctx context.Context, img image.Image, o NeuralOptions) ([]region, letterboxed, []float32, error) {
	lb, err := n.letterbox(img)
	if err != nil {
		return nil, lb, nil, err
	}
	maps, err := n.sess.RunMaps(ctx, lb.tensor, 1)
	if err != nil {
		return nil, lb, nil, fmt.Errorf("crop: run cropnet: %w", err)
	}
	m := maps["masks"]
	if len(m.Shape) != 4 || m.Shape[1] != 2 || m.Shape[2] != int64(n.size) || m.Shape[3] != int64(n.size) {
		return nil, lb, nil, fmt.Errorf("%w: masks of shape %v", ErrBadCropModel, m.Shape)
	}
	plane := n.size * n.size
	return segment(m.Data[:plane], m.Data[plane:2*plane], n.size, lb.w, lb.h, o), lb, m.Data[:plane], nil
}
