// Package orient finds the rotation code that makes a document crop
// upright (4 quarter turns × mirror); cvimg.Turn applies it.
//
// Two readings vote. docnet's orientation head sees the whole document
// squashed to 96 pixels and reads its layout; the text lines of the crop,
// found and read by PP-OCR (textlines.go), say which way the writing runs.
// The decision is the product of the text reading's probabilities and
// docnet's vote (vote). Without enough text, without the PP-OCR models,
// or when docnet is decisive (Decisive: sure as it is only of documents
// like those it learnt from), docnet decides alone (its calibrated
// probabilities).
package orient

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math"

	"docsuite/pkg/geom"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/prob"
)

// ModelName is docnet's entry in models/manifest.json.
const ModelName = "docnet"

// OrientHead is the output holding docnet's orientation logits; its
// classes are the rotation codes "0".."7".
const OrientHead = "orient_logits"

// DocnetLogitWeight and DocnetMaxVote shape docnet's vote: each rotation
// gets DocnetLogitWeight times its raw logit's margin below the best one,
// in nats, but never less than -DocnetMaxVote. On synthetic documents
// both readings are right; on real ones docnet's layout reading transfers
// poorly, so it breaks the text's near-ties and a clear text reading
// overrules it. The raw logits keep the vote the same when a retrained
// model's fitted temperature changes; the figures are the former vote's
// (0.1 times the log of probabilities calibrated at temperature 0.040,
// floored at 1e-12), measured on the real files' 8 ways (docs/models.md).
const (
	DocnetLogitWeight = 2.5
	DocnetMaxVote     = 2.76
)

// DocnetDecisiveMargin is the lead, in raw logit nats, of docnet's best
// rotation over its second from which docnet decides alone and the text
// lines are not read. docnet is that sure only of documents like those it
// was trained on: on 500 fresh synthetic crops (factory seed 828282) it
// was right on all 459 it led by 10 or more, where the text reading, sure
// of a wrong turn on a page with a line or two of text, overruled it on
// 11; on the real files' 8 ways (344 images) its lead never reached 10,
// the largest when wrong being 5.1 (docs/models.md).
const DocnetDecisiveMargin = 10

// Decisive says docnet's orientation logits lead by DocnetDecisiveMargin
// or more.
func Decisive(logits []float32) bool {
	first, second := math.Inf(-1), math.Inf(-1)
	for _, l := range logits {
		switch v := float64(l); {
		case v > first:
			first, second = v, first
		case v > second:
			second = v
		}
	}
	return first-second >= DocnetDecisiveMargin
}

// vote is docnet's share of the orientation decision, per rotation code,
// from its raw logits (see DocnetLogitWeight).
func vote(logits []float32) []float64 {
	best := math.Inf(-1)
	for _, l := range logits {
		best = math.Max(best, float64(l))
	}
	v := make([]float64, len(logits))
	for i, l := range logits {
		v[i] = math.Max(DocnetLogitWeight*(float64(l)-best), -DocnetMaxVote)
	}
	return v
}

// Options locate the model and the runtime.
type Options struct {
	Dir      string
	Library  string
	Threads  int
	AllowGPU bool
	Log      *slog.Logger
	// OCRModels is the PP-OCR model directory (empty: ppocr.DefaultDir);
	// without the models the text lines are not read.
	OCRModels string
	// NoText leaves the text lines unread: docnet decides alone.
	NoText bool
	// Text, when set, is a PP-OCR engine the caller already loaded (and
	// closes itself); the Orienter then loads none of its own.
	Text *ppocr.Engine
	// LogitsOnly reads docnet's orientation head from the manifest but
	// loads no network: the caller runs docnet itself (the classifier's
	// run gives the orientation head too) and asks ProbabilitiesFrom;
	// Orient and Probabilities then fail. It saves the memory of a second
	// copy of docnet (about 40 MB).
	LogitsOnly bool
}

// Orienter is a loaded orientation model, safe for concurrent use.
type Orienter struct {
	rt      *onnxrt.Runtime
	sess    *onnxrt.Session
	head    onnxrt.Head
	text    *ppocr.Engine // nil: docnet alone
	ownText bool          // text was loaded here and is closed with the Orienter
}

// Open loads the models.
func Open(opts Options) (*Orienter, error) {
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	rtOpts := onnxrt.Options{Library: opts.Library, Threads: opts.Threads, AllowGPU: opts.AllowGPU, Log: log}
	o := &Orienter{}
	var spec onnxrt.ModelSpec
	if opts.LogitsOnly {
		m, err := onnxrt.LoadManifest(opts.Dir)
		if err != nil {
			return nil, err
		}
		if spec, err = m.Model(ModelName); err != nil {
			return nil, err
		}
		if o.rt, err = onnxrt.Open(rtOpts); err != nil {
			return nil, err
		}
	} else {
		var err error
		if o.sess, o.rt, err = onnxrt.OpenModel(rtOpts, opts.Dir, ModelName); err != nil {
			return nil, err
		}
		spec = o.sess.Spec()
	}
	if opts.Text != nil {
		o.text = opts.Text
		opts.NoText = true // nothing more to load
	}
	if err := o.init(spec, opts.OCRModels, !opts.NoText, log); err != nil {
		_ = o.Close()
		return nil, err
	}
	return o, nil
}

// errLogitsOnly is the error of a docnet run asked of an Orienter opened
// with Options.LogitsOnly.
var errLogitsOnly = errors.New("orient: opened without docnet (LogitsOnly): pass its orientation logits to ProbabilitiesFrom")

func (o *Orienter) init(spec onnxrt.ModelSpec, ocrDir string, text bool, log *slog.Logger) error {
	head, err := spec.Head(OrientHead)
	if err != nil {
		return err
	}
	if len(head.Classes) != geom.NumRotations {
		return fmt.Errorf("orient: %s has %d classes, want %d", OrientHead, len(head.Classes), geom.NumRotations)
	}
	o.head = head
	if !text {
		return nil
	}
	if o.text, err = ppocr.Open(o.rt, ocrDir); err != nil {
		log.Warn("orient: PP-OCR models not loaded, docnet decides alone", "err", err)
		o.text = nil
	}
	o.ownText = o.text != nil
	return nil
}

// Close releases the models.
func (o *Orienter) Close() error {
	var errs []error
	if o.ownText {
		errs = append(errs, o.text.Close())
	}
	if o.sess != nil {
		errs = append(errs, o.sess.Close())
	}
	errs = append(errs, o.rt.Close())
	return errors.Join(errs...)
}

// Orient returns the rotation code that makes img upright and its
// calibrated probability.
func (o *Orienter) Orient(ctx context.Context, img image.Image) (geom.Rotation, float64, error) {
	p, err := o.Probabilities(ctx, img)
	if err != nil {
		return 0, 0, err
	}
	best := 0
	for i := range p {
		if p[i] > p[best] {
			best = i
		}
	}
	return geom.Rotation(best), p[best], nil
}

// Probabilities returns the probability of each rotation code 0..7.
func (o *Orienter) Probabilities(ctx context.Context, img image.Image) ([]float64, error) {
	if o.sess == nil {
		return nil, errLogitsOnly
	}
	if o.text == nil {
		return o.ProbabilitiesDetected(ctx, img, nil)
	}
	boxes, err := DetectLines(ctx, o.text, img)
	if err != nil {
		return nil, fmt.Errorf("orient: %w", err)
	}
	return o.ProbabilitiesDetected(ctx, img, boxes)
}

// ProbabilitiesDetected is Probabilities over the text lines the caller
// already detected on img with DetectLines.
func (o *Orienter) ProbabilitiesDetected(ctx context.Context, img image.Image, boxes []ppocr.Box) ([]float64, error) {
	logits, err := o.Logits(ctx, img)
	if err != nil {
		return nil, err
	}
	return o.ProbabilitiesFrom(ctx, img, boxes, logits)
}

// Logits runs docnet on img and returns its raw orientation logits.
func (o *Orienter) Logits(ctx context.Context, img image.Image) ([]float32, error) {
	if o.sess == nil {
		return nil, errLogitsOnly
	}
	out, err := o.sess.Run(ctx, o.sess.Spec().Input.Tensor(nil, img), 1)
	if err != nil {
		return nil, fmt.Errorf("orient: %w", err)
	}
	return out[OrientHead], nil
}

// PictureProbabilities is docnet's orientation alone, from its raw
// logits: its calibrated probability of each rotation code. The caller
// uses it where the text lines are known to say nothing (a page printed
// without text, classify.Classifier.Textless).
func (o *Orienter) PictureProbabilities(logits []float32) ([]float64, error) {
	if len(logits) != geom.NumRotations {
		return nil, fmt.Errorf("orient: %d orientation logits, want %d", len(logits), geom.NumRotations)
	}
	return o.head.Probabilities(logits), nil
}

// ProbabilitiesFrom is ProbabilitiesDetected with docnet's orientation
// logits on img already computed (by the classifier, whose run of the same
// network on the same crop gives them too).
func (o *Orienter) ProbabilitiesFrom(ctx context.Context, img image.Image, boxes []ppocr.Box, logits []float32) ([]float64, error) {
	var turned TurnedLines
	if o.text != nil {
		turned = detectTurned(o.text, img)
	}
	return o.ProbabilitiesShared(ctx, img, boxes, logits, turned)
}

// ProbabilitiesShared is ProbabilitiesFrom with the lines of the crop
// turned a quarter, where the orienter needs them, from turned (the
// caller's, which it needs too).
func (o *Orienter) ProbabilitiesShared(ctx context.Context, img image.Image, boxes []ppocr.Box, logits []float32,
	turned TurnedLines) ([]float64, error) {
	if len(logits) != geom.NumRotations {
		return nil, fmt.Errorf("orient: %d orientation logits, want %d", len(logits), geom.NumRotations)
	}
	pd := o.head.Probabilities(logits)
	if o.text == nil || Decisive(logits) {
		return pd, nil
	}
	tr, ok, err := readTextShared(ctx, o.text, img, boxes, decisiveGap, mixedShare, turned)
	if err != nil || !ok {
		return pd, err
	}
	return combine(tr.P, logits), nil
}

// combine is the decision: the text reading's probabilities per rotation
// code times docnet's vote, renormalised.
func combine(text []float64, logits []float32) []float64 {
	logp := vote(logits)
	for i := range logp {
		logp[i] += math.Log(max(text[i], 1e-12))
	}
	return prob.Softmax(logp)
}
