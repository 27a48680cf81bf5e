package onnxrt

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestResizeMatchesPillow resizes the same image with this package and
// with Pillow (what scripts/train_docnet_data.py uses) and requires the
// same bytes: a model sees at inference exactly what it saw in training.
func TestResizeMatchesPillow(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import PIL").Run(); err != nil {
		t.Skip("python3-pil not installed (scripts/install-deps.sh installs it)")
	}
	dir := t.TempDir()
	src := image.NewRGBA(image.Rect(0, 0, 517, 333))
	for y := 0; y < 333; y++ {
		for x := 0; x < 517; x++ {
			src.Set(x, y, color.RGBA{uint8((x*7 + y*3) % 256), uint8((x * y) % 251), uint8((x ^ y) % 256), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, src); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.png")
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{96, 96}, {128, 128}, {600, 200}, {517, 100}} {
		out := filepath.Join(dir, "out.raw")
		script := `import sys; from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB").resize((int(sys.argv[3]), int(sys.argv[4])), Image.BILINEAR)
open(sys.argv[2], "wb").write(im.tobytes())`
		cmd := exec.Command("/usr/bin/python3", "-c", script, in, out, itoa(size[0]), itoa(size[1]))
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pillow: %v %s", err, msg)
		}
		want, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got, ch := resize(src, size[0], size[1])
		if ch != 3 {
			t.Fatalf("%d channels from an RGBA image", ch)
		}
		diff := 0
		for i := 0; i < size[0]*size[1]; i++ {
			for c := 0; c < 3; c++ {
				if got[3*i+c] != want[3*i+c] {
					diff++
				}
			}
		}
		if diff != 0 {
			t.Errorf("%v: %d of %d samples differ from Pillow", size, diff, 3*size[0]*size[1])
		}
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

// TestTensorOfAnyImageKind: a JPEG's YCbCr page, converted one row at a
// time, and a sub-image give the model the very values the same pixels as
// RGBA give, whether the width is resampled or kept.
func TestTensorOfAnyImageKind(t *testing.T) {
	ycc := image.NewYCbCr(image.Rect(0, 0, 37, 23), image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = byte(i * 7)
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = byte(i*13+40), byte(200-i*5)
	}
	rgba := image.NewRGBA(ycc.Bounds())
	draw.Draw(rgba, rgba.Bounds(), ycc, image.Point{}, draw.Src)
	big := image.NewRGBA(image.Rect(0, 0, 45, 30))
	draw.Draw(big, image.Rect(3, 4, 40, 27), rgba, image.Point{}, draw.Src)
	sub := big.SubImage(image.Rect(3, 4, 40, 27))
	for _, size := range []image.Point{{8, 6}, {37, 11}} {
		in := InputSpec{Width: size.X, Height: size.Y, Scale: 1, Std: [3]float64{1, 1, 1}}
		want := in.Tensor(nil, rgba)
		for name, img := range map[string]image.Image{"ycbcr": ycc, "sub-image": sub} {
			got := in.Tensor(nil, img)
			if !slices.Equal(got, want) {
				t.Errorf("%s at %v: tensor differs from RGBA's", name, size)
			}
		}
	}
}
