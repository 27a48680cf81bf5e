package orient

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/synth"
)

func open(t *testing.T) *Orienter {
	t.Helper()
	o, err := Open(Options{Dir: "models"})
	if err != nil {
		t.Skipf("model not available (make models): %v", err)
	}
	t.Cleanup(func() { _ = o.Close() })
	return o
}

// TestUprightTurnsAndMirrors checks the eight codes against a marked
// image: code r moves the top-left marker where mirror-then-turn puts it.
func TestUprightTurnsAndMirrors(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			img.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	// Marker corner after the code: 0 TL, 1 TR, 2 BR, 3 BL; mirrored: 4 TR, 5 BR, 6 BL, 7 TL.
	corner := map[geom.Rotation][2]bool{0: {false, false}, 1: {true, false}, 2: {true, true}, 3: {false, true},
		4: {true, false}, 5: {true, true}, 6: {false, true}, 7: {false, false}}
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		out, err := Upright(img, r)
		if err != nil {
			t.Fatal(err)
		}
		b := out.Bounds()
		if (r.Turns()%2 == 1) != (b.Dx() == 40) {
			t.Errorf("code %d: size %v", r, b.Size())
		}
		x, y := 3, 3
		if corner[r][0] {
			x = b.Dx() - 4
		}
		if corner[r][1] {
			y = b.Dy() - 4
		}
		if c := color.RGBAModel.Convert(out.At(x, y)).(color.RGBA); c.R < 200 || c.G > 60 {
			t.Errorf("code %d: no marker at (%d,%d)", r, x, y)
		}
	}
}

// TestOrientationOnHeldOutSynthetic measures the orientation of fresh
// synthetic crops lying as the factory laid them; chance is 12.5%.
func TestOrientationOnHeldOutSynthetic(t *testing.T) {
	o := open(t)
	g, err := synth.New(synth.Config{Seed: 515151, Size: 1000, Effects: synth.DefaultEffects()})
	if err != nil {
		t.Fatal(err)
	}
	right, n := 0, 0
	for i := 0; i < 50; i++ {
		crops, err := g.Crops(context.Background(), i, 256, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		for _, cr := range crops {
			if doctypes.IsSpecial(cr.Type) {
				continue
			}
			r, p, err := o.Orient(context.Background(), cr.Img)
			if err != nil {
				t.Fatal(err)
			}
			if p < 0 || p > 1 {
				t.Fatalf("probability %v", p)
			}
			n++
			if r == cr.Rotation {
				right++
			}
		}
	}
	acc := float64(right) / float64(n)
	t.Logf("orientation accuracy %.3f on %d held-out synthetic crops", acc, n)
	if acc < 0.8 {
		t.Errorf("orientation accuracy %.3f, want at least 0.8", acc)
	}
}

// TestRuntimeMatchesPyTorch feeds the reference input the training script
// recorded and compares ONNX Runtime's logits with PyTorch's.
func TestRuntimeMatchesPyTorch(t *testing.T) {
	o := open(t)
	dir, err := onnxrt.FindDir("models")
	if err != nil {
		t.Skip(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "docnet.reference.json"))
	if err != nil {
		t.Skip("no reference logits")
	}
	var ref struct {
		Batch        int    `json:"batch"`
		Size         int    `json:"size"`
		TypeLogits   string `json:"type_logits"`
		OrientLogits string `json:"orient_logits"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	spec := o.sess.Spec()
	mean, std := spec.Input.Mean, spec.Input.Std
	n, s := ref.Batch, ref.Size
	in := make([]float32, n*3*s*s)
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			for y := 0; y < s; y++ {
				for x := 0; x < s; x++ {
					v := float32((7*c+31*y+17*x+101*i)%256) / 255
					in[((i*3+c)*s+y)*s+x] = (v - float32(mean[c])) / float32(std[c])
				}
			}
		}
	}
	out, err := o.sess.Run(context.Background(), in, n)
	if err != nil {
		t.Fatal(err)
	}
	for name, b64 := range map[string]string{"type_logits": ref.TypeLogits, "orient_logits": ref.OrientLogits} {
		b, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		got := out[name]
		if len(got)*4 != len(b) {
			t.Fatalf("%s: %d values, reference %d", name, len(got), len(b)/4)
		}
		worst := 0.0
		for i := range got {
			want := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			worst = math.Max(worst, math.Abs(float64(got[i]-want)))
		}
		if worst > 1e-3 {
			t.Errorf("%s: differs from PyTorch by up to %g", name, worst)
		}
	}
}
