package crop

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"docsuite/pkg/geom"
)

type sceneDoc struct {
	quad  geom.Quad // where the document's corners land
	w, h  int       // the drawn document's size
	paper color.RGBA
}

type scene struct {
	name    string
	w, h    int
	tex     int
	docs    []sceneDoc
	visible []geom.Quad // expected outlines where they differ from docs (cut by the frame)
}

var (
	white = color.RGBA{240, 238, 230, 255}
	pink  = color.RGBA{235, 200, 205, 255}
	blue  = color.RGBA{60, 80, 150, 255}
)

func scenes() []scene {
	return []scene{
		{name: "one rotated card on wood", w: 1600, h: 1200, tex: texWood,
			docs: []sceneDoc{{quad: rectQuad(800, 600, 856, 540, 14), w: 856, h: 540, paper: white}}},
		{name: "two documents on fabric", w: 1600, h: 1200, tex: texFabric,
			docs: []sceneDoc{
				{quad: rectQuad(430, 560, 560, 790, -8), w: 560, h: 790, paper: white},
				{quad: rectQuad(1150, 620, 640, 400, 22), w: 640, h: 400, paper: pink},
			}},
		{name: "perspective on dark", w: 1500, h: 1300, tex: texPlainDark,
			docs: []sceneDoc{{quad: geom.Quad{{X: 380, Y: 260}, {X: 1150, Y: 300}, {X: 250, Y: 1010}, {X: 1290, Y: 1060}}, w: 900, h: 640, paper: white}}},
		{name: "dark card on light desk", w: 1400, h: 1000, tex: texPlainLight,
			docs: []sceneDoc{{quad: rectQuad(700, 500, 800, 500, -5), w: 800, h: 500, paper: blue}}},
		{name: "cut by the frame", w: 1600, h: 1200, tex: texWood,
			docs:    []sceneDoc{{quad: geom.Quad{{X: -120, Y: 300}, {X: 700, Y: 300}, {X: -120, Y: 850}, {X: 700, Y: 850}}, w: 820, h: 550, paper: white}},
			visible: []geom.Quad{{{X: 0, Y: 300}, {X: 700, Y: 300}, {X: 0, Y: 850}, {X: 700, Y: 850}}}},
		{name: "texture only", w: 1600, h: 1200, tex: texWood},
		{name: "blank page", w: 1240, h: 1754, tex: texPlainLight},
	}
}

func render(t testing.TB, s scene, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, 7))
	page := background(s.w, s.h, s.tex, rng)
	for _, d := range s.docs {
		place(t, page, document(d.w, d.h, d.paper, rng), d.quad)
	}
	return page
}

func TestSimpleScenes(t *testing.T) {
	for i, s := range scenes() {
		t.Run(s.name, func(t *testing.T) {
			page := render(t, s, uint64(i))
			want := s.visible
			if want == nil {
				for _, d := range s.docs {
					want = append(want, d.quad)
				}
			}
			found, err := Simple(page, SimpleOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != len(want) {
				t.Fatalf("found %d documents, want %d: %+v", len(found), len(want), found)
			}
			for _, w := range want {
				best := 0.0
				for _, f := range found {
					best = math.Max(best, geom.IoU(w, f.Quad))
				}
				if best < 0.9 {
					t.Errorf("document %v: best IoU %.3f < 0.9 (found %+v)", w, best, found)
				} else {
					t.Logf("IoU %.4f", best)
				}
			}
		})
	}
}

func TestOrderCorners(t *testing.T) {
	cases := []struct {
		name string
		in   [4]geom.Point
		want geom.Quad
	}{
		{"shuffled rectangle", [4]geom.Point{{X: 10, Y: 50}, {X: 0, Y: 0}, {X: 10, Y: 0}, {X: 0, Y: 50}},
			geom.Quad{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 0, Y: 50}, {X: 10, Y: 50}}},
		{"turned 30 degrees", [4]geom.Point{{X: 100, Y: 0}, {X: 187, Y: 50}, {X: 50, Y: 87}, {X: 137, Y: 137}},
			geom.Quad{{X: 100, Y: 0}, {X: 187, Y: 50}, {X: 50, Y: 87}, {X: 137, Y: 137}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := OrderCorners(c.in); got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestWarpAspect(t *testing.T) {
	cases := []struct {
		name  string
		quad  geom.Quad
		ratio float64
	}{
		{"upright", rectQuad(600, 500, 856, 540, 0), 856.0 / 540},
		{"turned", rectQuad(600, 500, 540, 856, 30), 540.0 / 856},
		// An ID-1 card (85.6 x 54 mm) seen tilted away: the far side is short.
		{"perspective", geom.Quad{{X: 420, Y: 300}, {X: 780, Y: 300}, {X: 300, Y: 600}, {X: 900, Y: 600}}, 0},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := background(1200, 1000, texWood, rng)
			place(t, page, document(856, 540, white, rng), c.quad)
			img, err := Warp(page, c.quad)
			if err != nil {
				t.Fatal(err)
			}
			b := img.Bounds()
			got := float64(b.Dx()) / float64(b.Dy())
			if c.ratio > 0 && math.Abs(got-c.ratio)/c.ratio > 0.02 {
				t.Fatalf("aspect %.3f, want %.3f", got, c.ratio)
			}
			// The crop's corners are paper, not background.
			for _, p := range []image.Point{{3, 3}, {b.Dx() - 4, 3}, {3, b.Dy() - 4}, {b.Dx() - 4, b.Dy() - 4}} {
				r, g, bb, _ := img.At(p.X, p.Y).RGBA()
				if r>>8 < 200 || g>>8 < 200 || bb>>8 < 200 {
					t.Fatalf("corner %v is not paper: %d %d %d", p, r>>8, g>>8, bb>>8)
				}
			}
		})
	}
}

// TestAspectOfNearParallelograms checks that quads within a fraction of a
// degree of a parallelogram keep the ratio of their sides: such a quad
// says nothing of perspective.
func TestAspectOfNearParallelograms(t *testing.T) {
	cases := []struct {
		name string
		quad geom.Quad
	}{
		// A real passport spread (AlexBrrr-rkn-passport-ai_v2, 3840 x 2160
		// photo) found square on with its lower-left corner 10 px in: the
		// estimate alone made it 35 % too tall.
		{"spread, a corner off", geom.Quad{{X: 965.68, Y: 0}, {X: 1918.36, Y: 0}, {X: 956.03, Y: 1340.96}, {X: 1919.27, Y: 1341}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, h := c.quad.Size()
			if got := AspectRatio(c.quad); math.Abs(math.Log(got/(w/h))) > 0.05 {
				t.Fatalf("aspect %.3f, the sides say %.3f", got, w/h)
			}
		})
	}
}

func BenchmarkSimple(b *testing.B) {
	page := render(b, scenes()[1], 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Simple(page, SimpleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
