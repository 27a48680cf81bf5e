// Package orient finds the rotation code that makes a document crop
// upright (docnet's orientation head: 4 quarter turns × mirror);
// cvimg.Turn applies it.
package orient

import (
	"context"
	"fmt"
	"image"
	"log/slog"

	"docsuite/pkg/geom"
	"docsuite/pkg/onnxrt"
)

// ModelName is docnet's entry in models/manifest.json.
const ModelName = "docnet"

// OrientHead is the output holding the orientation logits; its classes
// are the rotation codes "0".."7".
const OrientHead = "orient_logits"

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
	rt   *onnxrt.Runtime
	sess *onnxrt.Session
	head onnxrt.Head
}

// Open loads the model.
func Open(opts Options) (*Orienter, error) {
	sess, rt, err := onnxrt.OpenModel(onnxrt.Options{Library: opts.Library, Threads: opts.Threads, AllowGPU: opts.AllowGPU, Log: opts.Log}, opts.Dir, ModelName)
	if err != nil {
		return nil, err
	}
	head, err := sess.Spec().Head(OrientHead)
	if err == nil && len(head.Classes) != geom.NumRotations {
		err = fmt.Errorf("orient: %s has %d classes, want %d", OrientHead, len(head.Classes), geom.NumRotations)
	}
	if err != nil {
		_ = sess.Close()
		_ = rt.Close()
		return nil, err
	}
	return &Orienter{rt: rt, sess: sess, head: head}, nil
}

// Close releases the model.
func (o *Orienter) Close() error {
	err := o.sess.Close()
	if e := o.rt.Close(); err == nil {
		err = e
	}
	return err
}

// Orient returns the rotation code that makes img upright and its
// calibrated probability.
func (o *Orienter) Orient(ctx context.Context, img image.Image) (geom.Rotation, float64, error) {
	out, err := o.sess.Run(ctx, o.sess.Spec().Input.Tensor(nil, img), 1)
	if err != nil {
		return 0, 0, fmt.Errorf("orient: %w", err)
	}
	p := o.head.Probabilities(out[OrientHead])
	best := 0
	for i := range p {
		if p[i] > p[best] {
			best = i
		}
	}
	return geom.Rotation(best), p[best], nil
}
