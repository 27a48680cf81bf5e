package splice

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"
)

// page draws a smooth, lightly noisy page with some print on it.
func page(w, h int, seed uint64) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := 150 + 30*math.Sin(float64(x)/7)*math.Cos(float64(y)/11) + 20*math.Sin(float64(x+2*y)/5) + r.NormFloat64()*6
			if (y/24)%3 == 1 && (x/6)%4 != 0 && x > w/10 && x < w*8/10 {
				v -= 110 // rows of "letters"
			}
			c := uint8(max(0, min(255, v)))
			img.Set(x, y, color.RGBA{c, c, uint8(max(0, min(255, v*0.9))), 255})
		}
	}
	return img
}

// jpegRoundTrip compresses img at quality q and decodes it.
func jpegRoundTrip(t *testing.T, img image.Image, q int) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// forge pastes a piece of another picture, compressed on its own at
// quality 60, at dst on a camera picture (quality 75), and saves the result
// at quality 92, as an editor would; an empty dst leaves the picture
// untouched but saved again.
func forge(t *testing.T, dst image.Rectangle) image.Image {
	t.Helper()
	cam := jpegRoundTrip(t, page(640, 480, 1), 75)
	out := image.NewRGBA(cam.Bounds())
	draw.Draw(out, out.Bounds(), cam, image.Point{}, draw.Src)
	if !dst.Empty() {
		piece := jpegRoundTrip(t, page(dst.Dx(), dst.Dy(), 2), 60)
		draw.Draw(out, dst, piece, image.Point{}, draw.Src)
	}
	return jpegRoundTrip(t, out, 92)
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name  string
		dst   image.Rectangle
		phase image.Point
	}{
		{"untouched", image.Rectangle{}, image.Point{}},
		{"piece at offset 3, 5", image.Rect(163, 205, 483, 333), image.Pt(3, 5)},
		{"piece at offset 6, 2", image.Rect(94, 122, 350, 410), image.Pt(6, 2)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(context.Background(), forge(t, c.dst), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.dst.Empty() {
				if len(got) > 0 {
					t.Fatalf("untouched picture: %+v", got)
				}
				return
			}
			if len(got) == 0 {
				t.Fatal("no region found")
			}
			r := got[0]
			if r.Phase != c.phase || r.Page != (image.Point{}) || !r.Box.Overlaps(c.dst) {
				t.Fatalf("got %+v, want phase %v on the page's 0, 0 over %v", r, c.phase, c.dst)
			}
			in := r.Box.Intersect(c.dst)
			if 2*in.Dx()*in.Dy() < r.Box.Dx()*r.Box.Dy() {
				t.Errorf("region %v lies mostly outside the piece %v", r.Box, c.dst)
			}
		})
	}
}

func TestBox(t *testing.T) {
	dst := image.Rect(203, 99, 395, 355)
	cases := []struct {
		name   string
		forged bool
		strong bool
	}{
		{"replaced portrait", true, true},
		{"genuine portrait", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img := forge(t, image.Rectangle{})
			if c.forged {
				img = forge(t, dst)
			}
			m, err := Measure(context.Background(), img, Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Box(dst)
			if strong := r.Strength >= DefaultMinStrength; strong != c.strong {
				t.Fatalf("strength %.1f (phase %v), want strong %v", r.Strength, r.Phase, c.strong)
			}
			if c.forged && r.Phase != image.Pt(3, 3) {
				t.Errorf("phase %v, want 3, 3", r.Phase)
			}
		})
	}
}
