package onnxrt

import (
	"context"
	"fmt"

	ort "github.com/yalue/onnxruntime_go"
)

// Map is one dense model output: Data holds the values in row-major order
// of Shape (for a segmentation head, batch × classes × height × width).
type Map struct {
	Shape []int64
	Data  []float32
}

// RunMaps feeds a batch of preprocessed inputs (batch × 3 × H × W floats,
// H and W as the manifest's input) and returns every head's whole output
// with its shape, for models whose heads are per-pixel maps rather than
// one row of logits per input. ONNX Runtime allocates the outputs, so
// their shapes need not be known in advance.
func (s *Session) RunMaps(ctx context.Context, input []float32, batch int) (map[string]Map, error) {
	x, err := s.inputTensor(ctx, input, batch)
	if err != nil {
		return nil, err
	}
	defer x.Destroy()
	outs := make([]ort.Value, len(s.outputs))
	if err := s.session.Run([]ort.Value{x}, outs); err != nil {
		return nil, fmt.Errorf("onnxrt: run %s: %w", s.spec.Name, err)
	}
	res := make(map[string]Map, len(outs))
	for i, o := range outs {
		if o == nil {
			continue
		}
		defer o.Destroy()
		t, ok := o.(*ort.Tensor[float32])
		if !ok {
			return nil, fmt.Errorf("onnxrt: %s: output %q is not a float32 tensor", s.spec.Name, s.outputs[i])
		}
		res[s.outputs[i]] = Map{Shape: append([]int64(nil), t.GetShape()...), Data: append([]float32(nil), t.GetData()...)}
	}
	for _, name := range s.outputs {
		if _, ok := res[name]; !ok {
			return nil, fmt.Errorf("onnxrt: %s: no output %q", s.spec.Name, name)
		}
	}
	return res, nil
}
