package classify

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/synth"
)

// page fills a w x h image with f(x, y).
func page(w, h int, f func(x, y int) color.RGBA) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetRGBA(x, y, f(x, y))
		}
	}
	return img
}

// TestFlat: blank paper of one tone is flat; a page with a print block, a
// lit gradient, a dark frame are not.
func TestFlat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	grain := func(base uint8) func(x, y int) color.RGBA {
		return func(x, y int) color.RGBA {
			v := uint8(int(base) + rng.IntN(7) - 3)
			return color.RGBA{v, v, v - 2, 255}
		}
	}
	tests := []struct {
		name string
		img  image.Image
		want bool
	}{
		{"pure white page (a PDF's blank page)", page(1240, 1754, func(int, int) color.RGBA { return color.RGBA{255, 255, 255, 255} }), true},
		{"off-white paper with grain", page(900, 1200, grain(242)), true},
		{"a block of print on white", page(900, 1200, func(x, y int) color.RGBA {
			if x > 100 && x < 500 && y > 100 && y < 300 && y%12 < 4 {
				return color.RGBA{20, 20, 20, 255}
			}
			return color.RGBA{250, 250, 250, 255}
		}), false},
		{"uneven light, 255 down to 225", page(900, 1200, func(x, y int) color.RGBA {
			v := uint8(255 - 30*y/1200)
			return color.RGBA{v, v, v, 255}
		}), false},
		{"dark and uniform (a lens cap)", page(640, 480, func(int, int) color.RGBA { return color.RGBA{8, 8, 8, 255} }), false},
		{"empty image", image.NewRGBA(image.Rect(0, 0, 0, 0)), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Flat(tc.img); got != tc.want {
				t.Errorf("Flat = %t, want %t", got, tc.want)
			}
		})
	}
}

// TestNoFactoryDocumentIsFlat: fresh factory crops of every type, heavy
// effects included, blank passport and vehicle passport pages among them,
// are never flat. (The factory's blank pages, photographed under uneven
// light, are flat only now and then; docnet knows those.)
func TestNoFactoryDocumentIsFlat(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		types []string
	}{
		{"every type", nil},
		{"pages printed with little", []string{"passport_blank_page", "digital_vehicle_passport_page_2_blank", "empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := synth.New(synth.Config{Seed: 515151, Size: 1000, Effects: synth.DefaultEffects(), Types: tc.types})
			if err != nil {
				t.Fatal(err)
			}
			docs, blanks, flatBlanks := 0, 0, 0
			for i := 0; i < 60; i++ {
				crops, err := g.Crops(ctx, i, 384, 0.01)
				if err != nil {
					t.Fatal(err)
				}
				for _, cr := range crops {
					flat := Flat(cr.Img)
					if doctypes.IsSpecial(cr.Type) {
						if cr.Type == doctypes.Empty {
							blanks++
							if flat {
								flatBlanks++
							}
						}
						continue
					}
					docs++
					if flat {
						t.Errorf("scene %d: a %s crop is flat", i, cr.Type)
					}
				}
			}
			t.Logf("%d document crops, none flat; %d of %d blank pages flat", docs, flatBlanks, blanks)
			if docs < 50 {
				t.Errorf("only %d document crops looked at", docs)
			}
		})
	}
}

// TestBlankRulesOutDocuments: on a page that prints nothing the answer is
// a special class, and a picture that leans to empty makes it sure.
func TestBlankRulesOutDocuments(t *testing.T) {
	c := open(t)
	white := page(1240, 1754, func(int, int) color.RGBA { return color.RGBA{255, 255, 255, 255} })
	out, err := c.Outputs(context.Background(), white)
	if err != nil {
		t.Fatal(err)
	}
	without, err := c.ClassifyOutputs(out, nil, Evidence{WordsRead: true})
	if err != nil {
		t.Fatal(err)
	}
	with, err := c.ClassifyOutputs(out, nil, Evidence{WordsRead: true, Blank: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pure white page: %s %.3f without the evidence, %s %.3f with it", without.Type, without.Confidence, with.Type, with.Confidence)
	if !doctypes.IsSpecial(with.Type) {
		t.Fatalf("a blank page answered %s", with.Type)
	}
	for _, s := range with.Top {
		if !doctypes.IsSpecial(s.Type) && s.Probability > 0 {
			t.Errorf("%s keeps %.3f on a blank page", s.Type, s.Probability)
		}
	}
	if with.Type != doctypes.Empty || with.Confidence < 0.6 {
		t.Errorf("pure white page: %s %.3f, want empty above 0.6", with.Type, with.Confidence)
	}
}
