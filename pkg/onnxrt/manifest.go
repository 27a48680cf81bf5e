package onnxrt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ManifestFile is the manifest's file name inside the models directory.
const ManifestFile = "manifest.json"

// Manifest lists the project's models (models/manifest.json).
type Manifest struct {
	Version int         `json:"version"`
	Models  []ModelSpec `json:"models"`
	// Dir is the directory the manifest was read from; model files are
	// relative to it.
	Dir string `json:"-"`
}

// ModelSpec is one model of the manifest: its file and checksum, how to
// build its input, what its outputs mean, and how it was made.
type ModelSpec struct {
	Name   string    `json:"name"`
	File   string    `json:"file"`
	SHA256 string    `json:"sha256"`
	Bytes  int64     `json:"bytes"`
	Input  InputSpec `json:"input"`
	Heads  []Head    `json:"heads"`
	// OtherThreshold is the classifier's calibrated probability below which
	// a document type is replaced by `other` (see pkg/classify).
	OtherThreshold float64 `json:"other_threshold,omitempty"`
	// Training, Metrics and Made document the model; the code does not
	// interpret them.
	Training json.RawMessage `json:"training,omitempty"`
	Metrics  json.RawMessage `json:"metrics,omitempty"`
	Made     string          `json:"made,omitempty"`
}

// InputSpec describes the single image input: NCHW float32 RGB of
// Height x Width, each channel value v in 0..255 fed as
// (v*Scale - Mean[c]) / Std[c].
type InputSpec struct {
	Name   string     `json:"name"`
	Layout string     `json:"layout"`
	Color  string     `json:"color"`
	Height int        `json:"height"`
	Width  int        `json:"width"`
	Resize string     `json:"resize"`
	Scale  float64    `json:"scale"`
	Mean   [3]float64 `json:"mean"`
	Std    [3]float64 `json:"std"`
}

// Head is one named output: logits over Classes, to be divided by
// Temperature before the softmax (temperature scaling calibration).
type Head struct {
	Output      string   `json:"output"`
	Classes     []string `json:"classes"`
	Temperature float64  `json:"temperature"`
}

// Errors that make a model unavailable; the service answers 503 "model
// not loaded" for any of them.
var (
	ErrNoManifest    = errors.New("onnxrt: model manifest missing")
	ErrUnknownModel  = errors.New("onnxrt: model not in manifest")
	ErrModelMissing  = errors.New("onnxrt: model file missing")
	ErrModelChecksum = errors.New("onnxrt: model file sha256 does not match the manifest")
	ErrBadManifest   = errors.New("onnxrt: invalid model manifest")
)

// LoadManifest reads dir/manifest.json. A relative dir is looked up from
// the working directory upwards (see FindDir).
func LoadManifest(dir string) (*Manifest, error) {
	d, err := FindDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNoManifest, dir, err)
	}
	b, err := os.ReadFile(filepath.Join(d, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoManifest, err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadManifest, filepath.Join(d, ManifestFile), err)
	}
	m.Dir = d
	for i := range m.Models {
		if err := m.Models[i].validate(); err != nil {
			return nil, err
		}
	}
	return &m, nil
}

// Model returns the entry called name.
func (m *Manifest) Model(name string) (ModelSpec, error) {
	for _, s := range m.Models {
		if s.Name == name {
			return s, nil
		}
	}
	return ModelSpec{}, fmt.Errorf("%w: %q in %s", ErrUnknownModel, name, m.Dir)
}

// Path is the model file's path for a manifest read from dir.
func (s ModelSpec) Path(dir string) string { return filepath.Join(dir, s.File) }

// Head returns the head writing output name.
func (s ModelSpec) Head(output string) (Head, error) {
	for _, h := range s.Heads {
		if h.Output == output {
			return h, nil
		}
	}
	return Head{}, fmt.Errorf("%w: model %q has no output %q", ErrBadManifest, s.Name, output)
}

func (s ModelSpec) validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: model %q: %s", ErrBadManifest, s.Name, fmt.Sprintf(format, a...))
	}
	switch {
	case s.Name == "" || s.File == "":
		return bad("name and file are required")
	case len(s.SHA256) != 64:
		return bad("sha256 must be 64 hex digits")
	case s.Input.Name == "" || s.Input.Height <= 0 || s.Input.Width <= 0:
		return bad("input name and size are required")
	case s.Input.Layout != "NCHW" || s.Input.Color != "RGB":
		return bad("only NCHW RGB input is supported, got %s %s", s.Input.Layout, s.Input.Color)
	case len(s.Heads) == 0:
		return bad("no heads")
	}
	for _, c := range s.Input.Std {
		if c <= 0 {
			return bad("std must be positive")
		}
	}
	for _, h := range s.Heads {
		if h.Output == "" || len(h.Classes) == 0 || h.Temperature <= 0 {
			return bad("head %q needs classes and a positive temperature", h.Output)
		}
	}
	return nil
}

// Verify checks that the model file exists and has the manifest's sha256.
func (s ModelSpec) Verify(dir string) error {
	_, err := s.read(dir)
	return err
}

// read returns the model file's bytes after checking their sha256, so the
// session is built from exactly the bytes that were verified.
func (s ModelSpec) read(dir string) ([]byte, error) {
	p := s.Path(dir)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrModelMissing, p, err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != s.SHA256 {
		return nil, fmt.Errorf("%w: %s has %s, manifest says %s", ErrModelChecksum, p, got, s.SHA256)
	}
	return b, nil
}
