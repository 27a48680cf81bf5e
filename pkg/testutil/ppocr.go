package testutil

import (
	"errors"
	"testing"

	"docsuite/pkg/onnxrt"
	"docsuite/pkg/ppocr"
)

// PPOCR opens ONNX Runtime and the PP-OCRv4 text models for a test and
// closes them when it ends; the test is skipped when either is not
// installed (make deps installs both).
func PPOCR(t testing.TB) *ppocr.Engine {
	t.Helper()
	rt, err := onnxrt.Open(onnxrt.Options{})
	if err != nil {
		t.Skipf("ONNX Runtime not available: %v", err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	e, err := ppocr.Open(rt, "")
	if errors.Is(err, ppocr.ErrModelsMissing) {
		t.Skipf("PP-OCRv4 models not installed (scripts/install-ocr-models.sh): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}
