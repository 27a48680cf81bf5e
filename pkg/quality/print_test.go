package quality

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"
)

// sheet draws a w × h luma sheet: paper(x, y) everywhere, then each line
// of print of the given level (rows of word-like blocks, 3 px strokes,
// from y0 to y1 of the sheet), plus noise of sigma levels.
func sheet(w, h int, paper func(x, y int) float64, sigma float64, prints ...printLines) *image.Gray {
	rng := rand.New(rand.NewPCG(1, 2))
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := paper(x, y)
			for _, p := range prints {
				if y >= p.y0 && y < p.y1 && (y-p.y0)%24 < 3 && x > w/10 && x < w-w/10 && x%50 < 38 {
					v = p.level
				}
			}
			v += sigma * rng.NormFloat64()
			img.SetGray(x, y, color.Gray{Y: uint8(math.Max(0, math.Min(255, math.Round(v))))})
		}
	}
	return img
}

// printLines are lines of print from row y0 to row y1 at a level.
type printLines struct {
	y0, y1 int
	level  float64
}

func flat(v float64) func(x, y int) float64 { return func(int, int) float64 { return v } }

// jpegOf is img saved as a JPEG of quality q and read back, as a phone
// saves its photos.
func jpegOf(t *testing.T, img image.Image, q int) image.Image {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBlankSheetIsNotOverexposed measures blank and nearly blank white
// sheets (what the classifier answers empty for) and washed-out documents
// at an A4 page's 150 dpi size. A sheet without print has no ink to be
// washed out, so it reads normal however white its paper; a document
// whose print is pale on blown-out paper still reads overexposed. Wash-out
// used to read a blank sheet's paper as its darkest ink: a rasterised
// blank PDF page scored 1, a scanned one (grey 240) 0.88.
func TestBlankSheetIsNotOverexposed(t *testing.T) {
	const w, h = 1240, 1754
	// Light falling off across a photographed sheet: 230 at the top left
	// to 195 at the bottom right.
	unevenLight := func(x, y int) float64 { return 230 - 35*float64(x+y)/float64(w+h) }
	tests := []struct {
		name string
		img  image.Image
		want string
	}{
		{"rasterised blank PDF page (white)", sheet(w, h, flat(255), 0), Normal},
		{"scanned blank page (grey 240, grain of 2 levels)", sheet(w, h, flat(240), 1), Normal},
		{"scanned blank page at the clipping level (grey 252, grain)", sheet(w, h, flat(252), 1.5), Normal},
		{"photographed blank sheet (uneven light, noise, JPEG)", jpegOf(t, sheet(w, h, unevenLight, 3), 85), Normal},
		{"evenly lit photographed blank sheet (grey 225, noise, JPEG)", jpegOf(t, sheet(w, h, flat(225), 4), 80), Normal},
		{"blank sheet with a speck of dust", withSpeck(sheet(w, h, flat(245), 1), 600, 900, 2), Normal},
		{"nearly blank: one line of small print at the top", sheet(w, h, flat(255), 0, printLines{100, 104, 20}), Normal},
		{"nearly blank scan: three lines of print", jpegOf(t, sheet(w, h, flat(242), 1.5, printLines{150, 200, 35}), 90), Normal},
		{"printed page (black on grey 240)", sheet(w, h, flat(240), 1.5, printLines{100, 1600, 25}), Normal},
		{"washed-out scan (print at 200 on white)", sheet(w, h, flat(255), 0, printLines{100, 1600, 200}), Overexposed},
		{"washed-out photo (print at 185 on paper 250, noise, JPEG)", jpegOf(t, sheet(w, h, flat(250), 2, printLines{100, 1600, 185}), 85), Overexposed},
		{"washed-out half page (print at 210 on white)", sheet(w, h, flat(255), 0, printLines{100, 800, 210}), Overexposed},
	}
	for _, tc := range tests {
		s := Measure(tc.img)
		if got := Flags(s, 1<<20, DefaultThresholds()); got.Exposure != tc.want || got.Blurred {
			t.Errorf("%s: flags %+v, want %s and sharp (scores %+v)", tc.name, got, tc.want, s)
		}
	}
}

// withSpeck puts a black square of side r px at (x, y).
func withSpeck(img *image.Gray, x, y, r int) *image.Gray {
	for dy := range r {
		for dx := range r {
			img.SetGray(x+dx, y+dy, color.Gray{Y: 10})
		}
	}
	return img
}
