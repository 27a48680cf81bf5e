package onnxrt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	ort "github.com/yalue/onnxruntime_go"
)

// sessionOptions builds the options every session shares: the intra-op
// thread count, one inter-op thread and, when allowed and present, the
// CUDA provider. It returns the provider chosen. The caller destroys the
// options.
func (r *Runtime) sessionOptions(name string) (*ort.SessionOptions, string, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, "", fmt.Errorf("onnxrt: session options: %w", err)
	}
	if err := opts.SetIntraOpNumThreads(r.opts.Threads); err != nil {
		opts.Destroy()
		return nil, "", fmt.Errorf("onnxrt: intra-op threads: %w", err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		opts.Destroy()
		return nil, "", fmt.Errorf("onnxrt: inter-op threads: %w", err)
	}
	provider := "CPU"
	if r.opts.AllowGPU {
		if cuda, err := ort.NewCUDAProviderOptions(); err == nil {
			if err := opts.AppendExecutionProviderCUDA(cuda); err == nil {
				provider = "CUDA"
			} else {
				r.log.Warn("ALLOW_GPU: CUDA execution provider unavailable, using the CPU", "model", name, "err", err)
			}
			cuda.Destroy()
		} else {
			r.log.Warn("ALLOW_GPU: CUDA execution provider unavailable, using the CPU", "model", name, "err", err)
		}
	}
	return opts, provider, nil
}

// SHA256 is the hex sha256 of b, as model lists record it.
func SHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TensorSession is a model with one float32 input and one float32 output
// of any shape (dynamic dimensions allowed), such as a text detector whose
// output is a probability map of the input's size. It is safe for
// concurrent Run calls.
type TensorSession struct {
	name    string
	session *ort.DynamicAdvancedSession
	// Provider is the execution provider in use: "CUDA" or "CPU".
	Provider string
}

// LoadFile opens a session on the model file at path after checking that
// its sha256 is want (hex); input and output name the model's tensors.
// Models that do not fit the manifest's classifier shape (see ModelSpec)
// are loaded this way, their checksums kept in their own list.
func (r *Runtime) LoadFile(path, want, input, output string) (*TensorSession, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrModelMissing, path, err)
	}
	if got := SHA256(b); got != want {
		return nil, fmt.Errorf("%w: %s has %s, want %s", ErrModelChecksum, path, got, want)
	}
	opts, provider, err := r.sessionOptions(path)
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(b, []string{input}, []string{output}, opts)
	if err != nil {
		return nil, fmt.Errorf("onnxrt: load %s: %w", path, err)
	}
	r.log.Info("model loaded", "file", path, "provider", provider, "threads", r.opts.Threads)
	return &TensorSession{name: path, session: s, Provider: provider}, nil
}

// Run feeds input of the given shape and returns the output's data and
// shape.
func (s *TensorSession) Run(ctx context.Context, input []float32, shape ...int64) ([]float32, []int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	if n != int64(len(input)) || n == 0 {
		return nil, nil, fmt.Errorf("onnxrt: %s: input of %d floats does not have shape %v", s.name, len(input), shape)
	}
	x, err := ort.NewTensor(ort.NewShape(shape...), input)
	if err != nil {
		return nil, nil, fmt.Errorf("onnxrt: input tensor: %w", err)
	}
	defer x.Destroy()
	outs := []ort.Value{nil}
	if err := s.session.Run([]ort.Value{x}, outs); err != nil {
		return nil, nil, fmt.Errorf("onnxrt: run %s: %w", s.name, err)
	}
	defer outs[0].Destroy()
	t, ok := outs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, nil, fmt.Errorf("onnxrt: %s: output is not a float32 tensor", s.name)
	}
	return append([]float32(nil), t.GetData()...), append([]int64(nil), t.GetShape()...), nil
}

// Close releases the session.
func (s *TensorSession) Close() error {
	if err := s.session.Destroy(); err != nil {
		return fmt.Errorf("onnxrt: close %s: %w", s.name, err)
	}
	return nil
}
