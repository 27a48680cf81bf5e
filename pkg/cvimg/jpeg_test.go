package cvimg

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"

	"docsuite/pkg/geom"
)

// TestJPEG encodes colour, grey and sub-images and decodes them with the
// standard library: the size, the colour model and, within JPEG's loss at
// quality 95, every pixel must come back (a channel order or stride slip
// shows as errors of a hundred or more).
func TestJPEG(t *testing.T) {
	src := testImage(67, 41)
	gray := image.NewGray(src.Bounds())
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 7 % 256 / 4 * 4)
	}
	cases := []struct {
		name string
		img  image.Image
		gray bool
	}{
		{"rgba", src, false},
		{"subimage", src.SubImage(image.Rect(5, 7, 60, 40)), false},
		{"gray", gray, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := JPEG(tc.img, 95)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jpeg.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if got.Bounds().Size() != tc.img.Bounds().Size() {
				t.Fatalf("size %v, want %v", got.Bounds().Size(), tc.img.Bounds().Size())
			}
			if _, isGray := got.(*image.Gray); isGray != tc.gray {
				t.Errorf("decoded as %T", got)
			}
			ob, gb := tc.img.Bounds(), got.Bounds()
			worst := 0
			for y := 0; y < ob.Dy(); y++ {
				for x := 0; x < ob.Dx(); x++ {
					r1, g1, b1, _ := tc.img.At(ob.Min.X+x, ob.Min.Y+y).RGBA()
					r2, g2, b2, _ := got.At(gb.Min.X+x, gb.Min.Y+y).RGBA()
					for _, d := range []int{int(r1>>8) - int(r2>>8), int(g1>>8) - int(g2>>8), int(b1>>8) - int(b2>>8)} {
						worst = max(worst, d, -d)
					}
				}
			}
			if worst > 40 {
				t.Errorf("a channel off by %d", worst)
			}
		})
	}
	if _, err := JPEG(src, 0); err == nil {
		t.Error("quality 0 accepted")
	}
}

// TestTurnedJPEG: a crop encoded turned is the crop turned by Turn and
// then encoded, at all eight rotation codes, for colour and grey.
func TestTurnedJPEG(t *testing.T) {
	src := testImage(67, 41)
	gray := image.NewGray(src.Bounds())
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 7 % 256)
	}
	for name, img := range map[string]image.Image{"rgba": src, "gray": gray} {
		for r := geom.Rotation(0); r < geom.NumRotations; r++ {
			got, err := TurnedJPEG(img, r, 90)
			if err != nil {
				t.Fatal(err)
			}
			up, err := Turn(img, r)
			if err != nil {
				t.Fatal(err)
			}
			want, err := JPEG(up, 90)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, rotation %d: the encoding differs from Turn's then JPEG's", name, r)
			}
		}
	}
}
