package ppocr_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/onnxrt"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/testutil"
)

func runtime(t *testing.T) *onnxrt.Runtime {
	t.Helper()
	rt, err := onnxrt.Open(onnxrt.Options{})
	if err != nil {
		t.Skipf("ONNX Runtime not available: %v", err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	return rt
}

func modelsDir(t *testing.T) string {
	t.Helper()
	d, err := onnxrt.FindDir(ppocr.DefaultDir)
	if err != nil {
		t.Skipf("PP-OCRv4 models not installed (scripts/install-ocr-models.sh): %v", err)
	}
	return d
}

// Two printed lines are found where they are and read as printed, the
// recogniser limited to capitals, digits and '<'. (O and 0 look alike to
// it in this font; pkg/mrz settles them by what each position holds.)
func TestDetectAndRecognize(t *testing.T) {
	testutil.Need(t, "convert")
	rt := runtime(t)
	e, err := ppocr.Open(rt, modelsDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	dir := t.TempDir()
	lines := []string{"HELLA<<WIDTH<2026", "L898902C36UTA7408122F"}
	testutil.Run(t, dir, "convert", "-size", "900x300", "xc:white", "-font", "DejaVu-Sans-Mono", "-pointsize", "40", "-fill", "black",
		"-annotate", "+60+100", lines[0], "-annotate", "+60+220", lines[1], "page.png")
	img := testutil.DecodeImage(t, filepath.Join(dir, "page.png"))
	cs := e.Charset(func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '<' })
	got, err := e.ReadAll(context.Background(), ppocr.NewImage(img), ppocr.DetectOptions{}, cs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d lines: %+v", len(got), got)
	}
	for i, l := range got {
		if l.Text != lines[i] {
			t.Errorf("line %d: %q, want %q", i, l.Text, lines[i])
		}
		// Baselines at y=100 and y=220, 40-point text: each box holds its line.
		base := []int{100, 220}[i]
		if l.Rect.Min.Y > base-25 || l.Rect.Max.Y < base || l.Rect.Min.X > 70 || l.Confidence < 0.8 || l.Confidence > 1 {
			t.Errorf("line %d at %v, confidence %.3f", i, l.Rect, l.Confidence)
		}
	}
}

// A model file that differs from models.json is refused, and a missing
// directory is reported as not installed.
func TestOpenVerifiesFiles(t *testing.T) {
	rt := runtime(t)
	src := modelsDir(t)
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range entries {
		if en.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, en.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(en.Name()) == ".txt" {
			b = append(b, 'x') // the character list, altered
		}
		if err := os.WriteFile(filepath.Join(dir, en.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ppocr.Open(rt, dir); !errors.Is(err, onnxrt.ErrModelChecksum) {
		t.Errorf("altered file: %v, want ErrModelChecksum", err)
	}
	if _, err := ppocr.Open(rt, filepath.Join(dir, "absent")); !errors.Is(err, ppocr.ErrModelsMissing) {
		t.Errorf("missing directory: %v, want ErrModelsMissing", err)
	}
}
