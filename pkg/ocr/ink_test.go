package ocr

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
	"time"
)

// grainyPage is a w x h page of paper at level paper with a scanner's
// grain (Gaussian, sigma 2 levels), as a JPEG decodes it (luma plane).
func grainyPage(w, h int, paper float64) *image.YCbCr {
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range img.Y {
		img.Y[i] = uint8(min(255, max(0, paper+2*rng.NormFloat64())))
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = 128, 128
	}
	return img
}

// printed is a grey copy of page with a line of print: strokes of 3 x 30
// pixels every 20 pixels, at level ink; scale darkens the whole page
// (1: as it is).
func printed(page image.Image, ink uint8, strokes int, scale float64) *image.Gray {
	b := page.Bounds()
	g := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			v := lumaAt(page, x, y)
			if s := (x - 80) / 20; y >= 100 && y < 130 && x >= 80 && s < strokes && (x-80)%20 < 3 {
				v = ink
			}
			g.SetGray(x, y, color.Gray{Y: uint8(float64(v) * scale)})
		}
	}
	return g
}

// onTable is a light card (paper 230, a line of print) lying on a dark
// table filling most of the picture.
func onTable() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 1200, 900))
	for y := 0; y < 900; y++ {
		for x := 0; x < 1200; x++ {
			v := uint8(40)
			if x >= 60 && x < 560 && y >= 60 && y < 380 {
				v = 230
				if y >= 100 && y < 130 && (x-80)%20 < 3 && x >= 80 && x < 500 {
					v = 120
				}
			}
			img.SetRGBA(x, y, color.RGBA{v, v, v, 255})
		}
	}
	return img
}

// TestBlank tells a blank page, however grainy or dark its scan, from a
// page with print on it, whatever the image's type.
func TestBlank(t *testing.T) {
	grain := grainyPage(1240, 1754, 240)
	speck := printed(grain, 0, 0, 1)
	for y := 800; y < 812; y++ {
		for x := 600; x < 612; x++ {
			speck.SetGray(x, y, color.Gray{})
		}
	}
	white := image.NewGray(image.Rect(0, 0, 800, 600))
	for i := range white.Pix {
		white.Pix[i] = 255
	}
	cases := []struct {
		name string
		img  image.Image
		want bool
	}{
		{"grainy blank scan (JPEG luma)", grain, true},
		{"grainy blank scan (grey)", printed(grain, 0, 0, 1), true},
		{"grainy blank scan, dark", printed(grain, 0, 0, 0.3), true},
		{"blank scan with a speck of dust", speck, true},
		{"pure white", white, true},
		{"pure black", image.NewGray(image.Rect(0, 0, 800, 600)), true},
		{"no pixels", image.NewGray(image.Rect(0, 0, 0, 0)), true},
		{"a line of print", printed(grain, 30, 60, 1), false},
		{"a line of print, dark photo", printed(grain, 30, 60, 0.3), false},
		{"a line of faint print (190 on 240)", printed(grain, 190, 60, 1), false},
		{"a card on a dark table", onTable(), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := blank(c.img); got != c.want {
				t.Errorf("blank = %v, want %v", got, c.want)
			}
		})
	}
}

// TestReadLeavesABlankScanUnread reads a blank A4 page scanned at 150 dpi
// with a scanner's grain, as decoded from a JPEG and as grey: no lines,
// no text, at once. Tesseract read the grain as specks of text ("- . ,"
// and the like) for seconds a reading, up to three readings a page (a
// minute each at 300 dpi, past PIPELINE_TIMEOUT: the fulltext method
// answered 503 for a blank page).
func TestReadLeavesABlankScanUnread(t *testing.T) {
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	grain := grainyPage(1240, 1754, 240)
	cases := []struct {
		name string
		img  image.Image
	}{
		{"JPEG luma", grain},
		{"grey", printed(grain, 0, 0, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			page, err := e.Read(context.Background(), c.img)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Lines) != 0 || page.Text != "" {
				t.Errorf("%d lines read on a blank page: %.80q...", len(page.Lines), page.Text)
			}
			if page.Width != 1240 || page.Height != 1754 || page.Lines == nil || page.Documents == nil {
				t.Errorf("page %dx%d, lines %v, documents %v: want 1240x1754 and empty lists", page.Width, page.Height, page.Lines, page.Documents)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("a blank page took %v", d)
			}
		})
	}
}
