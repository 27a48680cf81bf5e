// Package orient finds the rotation code that makes a document crop
// upright (4 quarter turns × mirror); cvimg.Turn applies it.
//
// Two networks vote. docnet's orientation head sees the whole document
// squashed to 96 pixels and reads its layout; orinet reads the glyphs of
// the crop's most text-like tiles (tiles.go), which look the same on
// synthetic and real documents. The decision is the product of orinet's
// calibrated probabilities and docnet's raised to DocnetWeight. Without an
// orinet entry in the manifest, docnet decides alone.
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
)

// ModelName is docnet's entry in models/manifest.json.
const ModelName = "docnet"

// TileModelName is orinet's entry in models/manifest.json.
const TileModelName = "orinet"

// OrientHead is the output holding the orientation logits of both models;
// its classes are the rotation codes "0".."7".
const OrientHead = "orient_logits"

// DocnetWeight is the exponent of docnet's probabilities in the vote: on
// synthetic documents both models are right, on real ones docnet's layout
// reading transfers poorly, so it only breaks orinet's near-ties.
const DocnetWeight = 0.25

// Options locate the model and the runtime.
type Options struct {
	Dir      string
	Library  string
	Threads  int
	AllowGPU bool
	Log      *slog.Logger
}

// Orienter is a loaded orientation model, safe for concurrent use.
type Orienter struct {
	rt    *onnxrt.Runtime
	sess  *onnxrt.Session
	head  onnxrt.Head
	tiles *onnxrt.Session // nil: docnet alone
	tHead onnxrt.Head
}

// Open loads the models.
func Open(opts Options) (*Orienter, error) {
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	sess, rt, err := onnxrt.OpenModel(onnxrt.Options{Library: opts.Library, Threads: opts.Threads, AllowGPU: opts.AllowGPU, Log: log}, opts.Dir, ModelName)
	if err != nil {
		return nil, err
	}
	o := &Orienter{rt: rt, sess: sess}
	if err := o.init(opts.Dir, log); err != nil {
		_ = o.Close()
		return nil, err
	}
	return o, nil
}

func (o *Orienter) init(dir string, log *slog.Logger) error {
	head, err := o.sess.Spec().Head(OrientHead)
	if err != nil {
		return err
	}
	if len(head.Classes) != geom.NumRotations {
		return fmt.Errorf("orient: %s has %d classes, want %d", OrientHead, len(head.Classes), geom.NumRotations)
	}
	o.head = head
	man, err := onnxrt.LoadManifest(dir)
	if err != nil {
		return err
	}
	if _, err := man.Model(TileModelName); errors.Is(err, onnxrt.ErrUnknownModel) {
		log.Warn("orient: no orinet in the manifest, docnet decides alone")
		return nil
	}
	t, err := o.rt.Load(man, TileModelName)
	if err != nil {
		return err
	}
	o.tiles = t
	th, err := t.Spec().Head(OrientHead)
	if err == nil && len(th.Classes) != geom.NumRotations {
		err = fmt.Errorf("orient: %s of %s has %d classes", OrientHead, TileModelName, len(th.Classes))
	}
	if err == nil && (t.Spec().Input.Height != TileSize || t.Spec().Input.Width != TileSize) {
		err = fmt.Errorf("orient: %s takes %dx%d tiles, this build cuts %dx%d", TileModelName,
			t.Spec().Input.Width, t.Spec().Input.Height, TileSize, TileSize)
	}
	o.tHead = th
	return err
}

// Close releases the models.
func (o *Orienter) Close() error {
	var errs []error
	if o.tiles != nil {
		errs = append(errs, o.tiles.Close())
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
	out, err := o.sess.Run(ctx, o.sess.Spec().Input.Tensor(nil, img), 1)
	if err != nil {
		return nil, fmt.Errorf("orient: %w", err)
	}
	pd := o.head.Probabilities(out[OrientHead])
	if o.tiles == nil {
		return pd, nil
	}
	pt, n, err := o.tileProbabilities(ctx, img)
	if err != nil || n == 0 {
		return pd, err
	}
	logp := make([]float64, len(pt))
	for i := range pt {
		logp[i] = math.Log(max(pt[i], 1e-12)) + DocnetWeight*math.Log(max(pd[i], 1e-12))
	}
	return softmax(logp), nil
}

// tileProbabilities is orinet's vote: the sum over the text tiles of each
// tile's log-probabilities, divided by the calibrated temperature. It also
// returns the number of tiles read (0 for a crop smaller than a tile).
func (o *Orienter) tileProbabilities(ctx context.Context, img image.Image) ([]float64, int, error) {
	tiles, err := textTiles(img)
	if err != nil || len(tiles) == 0 {
		return nil, 0, err
	}
	const plane = TileSize * TileSize
	in := make([]float32, len(tiles)*3*plane)
	for i, t := range tiles {
		for c := 0; c < 3; c++ {
			dst := in[(i*3+c)*plane:][:plane]
			for j, v := range t.pix {
				dst[j] = float32(v) / 255
			}
		}
	}
	out, err := o.tiles.Run(ctx, in, len(tiles))
	if err != nil {
		return nil, 0, fmt.Errorf("orient: %w", err)
	}
	logits := out[OrientHead]
	sum := make([]float64, geom.NumRotations)
	for i := range tiles {
		row := make([]float64, geom.NumRotations)
		for k := range row {
			row[k] = float64(logits[i*geom.NumRotations+k])
		}
		for k, v := range logSoftmax(row) {
			sum[k] += v
		}
	}
	t := o.tHead.Temperature
	if t <= 0 {
		t = 1
	}
	for k := range sum {
		sum[k] /= t
	}
	return softmax(sum), len(tiles), nil
}

func logSoftmax(v []float64) []float64 {
	mx := math.Inf(-1)
	for _, x := range v {
		mx = math.Max(mx, x)
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(x - mx)
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x - mx - math.Log(s)
	}
	return out
}

func softmax(v []float64) []float64 {
	out := logSoftmax(v)
	for i := range out {
		out[i] = math.Exp(out[i])
	}
	return out
}
