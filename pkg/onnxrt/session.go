package onnxrt

import (
	"context"
	"fmt"

	ort "github.com/yalue/onnxruntime_go"

	"docsuite/pkg/prob"
)

// Session is one loaded model, safe for concurrent Run calls.
type Session struct {
	spec    ModelSpec
	session *ort.DynamicAdvancedSession
	outputs []string
	// Provider is the execution provider in use: "CUDA" or "CPU".
	Provider string
}

// Load verifies the named model's file against the manifest and opens a
// session on it.
func (r *Runtime) Load(m *Manifest, name string) (*Session, error) {
	spec, err := m.Model(name)
	if err != nil {
		return nil, err
	}
	if err := spec.Verify(m.Dir); err != nil {
		return nil, err
	}
	opts, provider, err := r.sessionOptions(name)
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	outputs := make([]string, len(spec.Heads))
	for i, h := range spec.Heads {
		outputs[i] = h.Output
	}
	s, err := ort.NewDynamicAdvancedSession(spec.Path(m.Dir), []string{spec.Input.Name}, outputs, opts)
	if err != nil {
		return nil, fmt.Errorf("onnxrt: load %s: %w", spec.File, err)
	}
	r.log.Info("model loaded", "model", name, "file", spec.File, "provider", provider, "threads", r.opts.Threads)
	return &Session{spec: spec, session: s, outputs: outputs, Provider: provider}, nil
}

// Spec is the model's manifest entry.
func (s *Session) Spec() ModelSpec { return s.spec }

// Run feeds a batch of preprocessed inputs (batch × 3 × H × W floats, see
// InputSpec.Tensor) and returns each head's logits by output name, batch
// × classes each.
func (s *Session) Run(ctx context.Context, input []float32, batch int) (map[string][]float32, error) {
	x, err := s.inputTensor(ctx, input, batch)
	if err != nil {
		return nil, err
	}
	defer x.Destroy()
	outs := make([]ort.Value, len(s.outputs))
	for i, h := range s.spec.Heads {
		t, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(batch), int64(len(h.Classes))))
		if err != nil {
			return nil, fmt.Errorf("onnxrt: output tensor: %w", err)
		}
		defer t.Destroy()
		outs[i] = t
	}
	if err := s.session.Run([]ort.Value{x}, outs); err != nil {
		return nil, fmt.Errorf("onnxrt: run %s: %w", s.spec.Name, err)
	}
	res := make(map[string][]float32, len(outs))
	for i, o := range outs {
		res[s.outputs[i]] = append([]float32(nil), o.(*ort.Tensor[float32]).GetData()...)
	}
	return res, nil
}

// Close releases the session.
func (s *Session) Close() error {
	if err := s.session.Destroy(); err != nil {
		return fmt.Errorf("onnxrt: close %s: %w", s.spec.Name, err)
	}
	return nil
}

// Probabilities turns one row of a head's logits into calibrated
// probabilities: softmax of logits / Temperature.
func (h Head) Probabilities(logits []float32) []float64 {
	t := h.Temperature
	if t <= 0 {
		t = 1
	}
	p := make([]float64, len(logits))
	for i, l := range logits {
		p[i] = float64(l) / t
	}
	return prob.Softmax(p)
}

// OpenModel opens a Runtime, reads the manifest in dir and loads the named
// model; on failure nothing stays open.
func OpenModel(opts Options, dir, name string) (*Session, *Runtime, error) {
	m, err := LoadManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	rt, err := Open(opts)
	if err != nil {
		return nil, nil, err
	}
	s, err := rt.Load(m, name)
	if err != nil {
		_ = rt.Close()
		return nil, nil, err
	}
	return s, rt, nil
}

// inputTensor checks a batch of preprocessed inputs against the manifest's
// input size and wraps it as the model's input tensor; the caller destroys
// it.
func (s *Session) inputTensor(ctx context.Context, input []float32, batch int) (*ort.Tensor[float32], error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	in := s.spec.Input
	if batch <= 0 || len(input) != batch*3*in.Height*in.Width {
		return nil, fmt.Errorf("onnxrt: %s: input of %d floats is not %d×3×%d×%d", s.spec.Name, len(input), batch, in.Height, in.Width)
	}
	x, err := ort.NewTensor(ort.NewShape(int64(batch), 3, int64(in.Height), int64(in.Width)), input)
	if err != nil {
		return nil, fmt.Errorf("onnxrt: input tensor: %w", err)
	}
	return x, nil
}
