package onnxrt

import (
	"encoding/binary"
	"encoding/json"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// golden describes testdata/golden.json, written with the tensors by
// scripts/train_docnet_golden.py through the training script's own
// preprocessing functions.
type golden struct {
	Size  int        `json:"size"`
	Scale float64    `json:"scale"`
	Mean  [3]float64 `json:"mean"`
	Std   [3]float64 `json:"std"`
	Cases []string   `json:"cases"`
}

func readGolden(t *testing.T) golden {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if g.Size <= 0 || len(g.Cases) == 0 {
		t.Fatalf("golden.json: %+v", g)
	}
	return g
}

// TestTensorMatchesTrainingGolden requires InputSpec.Tensor to build, from
// the same PNG files, the tensors that PyTorch training builds (resize,
// channel order, plane layout, scale, mean and std), for an RGB and a
// greyscale image. Unlike TestResizeMatchesPillow it needs no Python.
func TestTensorMatchesTrainingGolden(t *testing.T) {
	g := readGolden(t)
	spec := InputSpec{Name: "image", Layout: "NCHW", Color: "RGB", Height: g.Size, Width: g.Size,
		Scale: g.Scale, Mean: g.Mean, Std: g.Std}
	for _, name := range g.Cases {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join("testdata", name+".f32"))
			if err != nil {
				t.Fatal(err)
			}
			got := spec.Tensor(nil, img)
			if len(raw) != 4*len(got) {
				t.Fatalf("golden has %d floats, Tensor made %d", len(raw)/4, len(got))
			}
			// The same pixels as a window of a larger image (offset bounds,
			// wider stride) and as another image type give the same tensor.
			if slices.Compare(spec.Tensor(nil, window(img)), got) != 0 {
				t.Errorf("a window of a larger image gives another tensor")
			}
			nrgba := image.NewNRGBA(img.Bounds())
			draw.Draw(nrgba, nrgba.Bounds(), img, img.Bounds().Min, draw.Src)
			if slices.Compare(spec.Tensor(nil, nrgba), got) != 0 {
				t.Errorf("the image as NRGBA gives another tensor")
			}
			// One 8-bit level is 1/255/std ≈ 0.0157 here: 1e-5 admits
			// float32 rounding only, never a different pixel.
			worst, at := 0.0, 0
			for i, v := range got {
				want := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
				if d := math.Abs(float64(v - want)); d > worst {
					worst, at = d, i
				}
			}
			if worst > 1e-5 {
				plane := g.Size * g.Size
				t.Errorf("differs from training preprocessing by %g at channel %d, y %d, x %d",
					worst, at/plane, at%plane/g.Size, at%g.Size)
			}
		})
	}
}

// window copies img into the middle of a larger image of the same type
// and returns that part as a sub-image.
func window(img image.Image) image.Image {
	b := img.Bounds()
	big := image.Rect(-7, -5, b.Dx()+9, b.Dy()+4)
	at := image.Rect(0, 0, b.Dx(), b.Dy())
	switch img.(type) {
	case *image.Gray:
		g := image.NewGray(big)
		draw.Draw(g, at, img, b.Min, draw.Src)
		return g.SubImage(at)
	default:
		m := image.NewRGBA(big)
		draw.Draw(m, at, img, b.Min, draw.Src)
		return m.SubImage(at)
	}
}

// TestManifestUsesTrainingNormalisation checks that every model the
// docnet training script made states in the manifest (what Go applies)
// the scale, mean and std that training used.
func TestManifestUsesTrainingNormalisation(t *testing.T) {
	g := readGolden(t)
	m, err := LoadManifest("models")
	if err != nil {
		t.Skipf("no model manifest (make models): %v", err)
	}
	for _, s := range m.Models {
		var made struct {
			Script string `json:"script"`
		}
		_ = json.Unmarshal(s.Training, &made)
		if made.Script != "scripts/train_docnet.py" {
			continue
		}
		in := s.Input
		if math.Abs(in.Scale-g.Scale) > 1e-12 || in.Mean != g.Mean || in.Std != g.Std {
			t.Errorf("model %s: scale %v mean %v std %v, training uses %v %v %v",
				s.Name, in.Scale, in.Mean, in.Std, g.Scale, g.Mean, g.Std)
		}
	}
}

// BenchmarkTensor times preprocessing of a 1200×800 crop to 96×96.
func BenchmarkTensor(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 1200, 800))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	spec := InputSpec{Height: 96, Width: 96, Scale: 1.0 / 255, Mean: [3]float64{0.5, 0.5, 0.5}, Std: [3]float64{0.25, 0.25, 0.25}}
	dst := make([]float32, 0, 3*96*96)
	for b.Loop() {
		dst = spec.Tensor(dst[:0], img)
	}
}
