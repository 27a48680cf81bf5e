package cvimg

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"gocv.io/x/gocv"

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

// openCVTurnedJPEG is how crops were encoded before TurnedJPEG wrote them
// in bands: the whole image converted, flipped and turned in OpenCV, then
// OpenCV's imencode.
func openCVTurnedJPEG(t testing.TB, img image.Image, r geom.Rotation, quality int) []byte {
	t.Helper()
	var m gocv.Mat
	var err error
	if _, gray := img.(*image.Gray); gray {
		m, err = Gray(img)
	} else {
		m, err = BGR(img)
	}
	if err != nil {
		t.Fatal(err)
	}
	m = turnMat(m, r)
	defer m.Close()
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, m, []int{gocv.IMWriteJpegQuality, quality})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...)
}

// TestTurnedJPEGInBands: the image compressed band by band, each band cut,
// converted and turned on its own, is byte for byte what OpenCV encodes
// from the whole image turned, for every layout a crop comes in, for
// sub-images at odd offsets, and at every rotation code; the large image
// is written in two to three bands.
func TestTurnedJPEGInBands(t *testing.T) {
	large := testImage(1500, 900)
	nrgba := &image.NRGBA{Pix: large.Pix, Stride: large.Stride, Rect: large.Rect}
	gray := image.NewGray(large.Bounds())
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 7 % 251)
	}
	ycc := smoothYCbCr(1500, 900, image.YCbCrSubsampleRatio420)
	paletted := image.NewPaletted(image.Rect(0, 0, 61, 37), color.Palette{color.Black, color.White, color.RGBA{200, 30, 60, 255}})
	for i := range paletted.Pix {
		paletted.Pix[i] = uint8(i % 3)
	}
	cases := map[string]image.Image{
		"rgba":          large,
		"rgba part":     large.SubImage(image.Rect(301, 97, 1280, 860)),
		"nrgba":         nrgba,
		"gray":          gray,
		"gray part":     gray.SubImage(image.Rect(3, 5, 1001, 799)),
		"ycbcr":         ycc,
		"ycbcr part":    ycc.SubImage(image.Rect(17, 33, 1399, 871)),
		"paletted":      paletted,
		"one pixel row": large.SubImage(image.Rect(0, 5, 900, 6)),
	}
	for name, img := range cases {
		for r := geom.Rotation(0); r < geom.NumRotations; r++ {
			got, err := TurnedJPEG(img, r, 85)
			if err != nil {
				t.Fatalf("%s, rotation %d: %v", name, r, err)
			}
			if want := openCVTurnedJPEG(t, img, r, 85); !bytes.Equal(got, want) {
				t.Errorf("%s, rotation %d: %d bytes, OpenCV's whole-image encoding %d bytes, not the same", name, r, len(got), len(want))
			}
		}
	}
}

// TestJPEGRefuses: what libjpeg cannot write is an error, not a crash.
func TestJPEGRefuses(t *testing.T) {
	cases := []struct {
		name    string
		img     image.Image
		quality int
	}{
		{"quality 0", testImage(8, 8), 0},
		{"quality 101", testImage(8, 8), 101},
		{"empty", image.NewRGBA(image.Rect(0, 0, 0, 5)), 90},
		{"wider than JPEG allows", image.NewGray(image.Rect(0, 0, 70000, 1)), 90},
	}
	for _, tc := range cases {
		if b, err := JPEG(tc.img, tc.quality); err == nil {
			t.Errorf("%s: %d bytes, want an error", tc.name, len(b))
		}
	}
}

// BenchmarkTurnedJPEGLarge times a 70-megapixel page written upright and
// turned a quarter, in bands, against OpenCV's whole-image encoding.
func BenchmarkTurnedJPEGLarge(b *testing.B) {
	ycc := smoothYCbCr(7070, 10000, image.YCbCrSubsampleRatio420)
	for _, r := range []geom.Rotation{0, 1} {
		b.Run(fmt.Sprint("bands-", r), func(b *testing.B) {
			for range b.N {
				if _, err := TurnedJPEG(ycc, r, 90); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("whole", func(b *testing.B) {
		for range b.N {
			openCVTurnedJPEG(b, ycc, 1, 90)
		}
	})
}
