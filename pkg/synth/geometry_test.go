package synth

import (
	"image"
	"image/color"
	"math"
	"testing"

	"docsuite/pkg/geom"
)

var (
	markTL = color.RGBA{255, 0, 0, 255}
	markTR = color.RGBA{0, 255, 0, 255}
	markBL = color.RGBA{0, 0, 255, 255}
)

// markedDoc is a white w x h document with coloured corner patches (TL red,
// TR green, BL blue), so its orientation can be read back from pixels.
func markedDoc(w, h int) *Doc {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fillRect(img, img.Rect, color.RGBA{255, 255, 255, 255})
	pw, ph := w/5, h/5
	fillRect(img, image.Rect(0, 0, pw, ph), markTL)
	fillRect(img, image.Rect(w-pw, 0, w, ph), markTR)
	fillRect(img, image.Rect(0, h-ph, pw, h), markBL)
	return &Doc{Type: "test", Img: img, PxPerMM: 8}
}

func near(c, m color.RGBA) bool {
	d := func(a, b uint8) int {
		if a > b {
			return int(a - b)
		}
		return int(b - a)
	}
	return d(c.R, m.R)+d(c.G, m.G)+d(c.B, m.B) < 120
}

// centroid of pixels close to colour m.
func centroid(img *image.RGBA, m color.RGBA) (geom.Point, int) {
	var sx, sy float64
	n := 0
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			if near(img.RGBAAt(x, y), m) {
				sx += float64(x) + 0.5
				sy += float64(y) + 0.5
				n++
			}
		}
	}
	if n == 0 {
		return geom.Point{}, 0
	}
	return geom.Point{X: sx / float64(n), Y: sy / float64(n)}, n
}

func nearestCorner(q geom.Quad, p geom.Point) int {
	best, bd := 0, math.Inf(1)
	for i, c := range q {
		if d := math.Hypot(c.X-p.X, c.Y-p.Y); d < bd {
			best, bd = i, d
		}
	}
	return best
}

// quadMask rasterises the quad's polygon.
func quadMask(p *painter, q geom.Quad, W, H int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, W, H))
	p.fillPoly(m, ringOf(q), color.RGBA{255, 255, 255, 255})
	return m
}

func TestQuadsMatchRenderedMask(t *testing.T) {
	fx := Effects{Perspective: 1.5, Angle: 1.5, Turn: 1, Mirror: 8}
	g := newTestGenerator(t, Config{Seed: 9, Effects: fx})
	p := g.painter()
	defer g.release(p)
	const W, H = 800, 600
	for i := 0; i < 40; i++ {
		r := NewRand(9, uint64(i))
		d := markedDoc(r.IntRange(300, 700), r.IntRange(200, 600))
		pl, err := g.placeOne(r, d, W, H, r.Range(2, 4), false, fx)
		if err != nil {
			t.Fatal(err)
		}
		if !inside(pl.quad, W, H, 0) {
			continue
		}
		canvas := image.NewRGBA(image.Rect(0, 0, W, H))
		fillRect(canvas, canvas.Rect, color.RGBA{0, 0, 0, 255})
		if err := g.composite(canvas, pl, r, true); err != nil {
			t.Fatal(err)
		}
		mask := quadMask(p, pl.quad, W, H)
		inter, union := 0, 0
		for k := 0; k < len(canvas.Pix); k += 4 {
			a := canvas.Pix[k]|canvas.Pix[k+1]|canvas.Pix[k+2] > 127
			b := mask.Pix[k] > 127
			if a && b {
				inter++
			}
			if a || b {
				union++
			}
		}
		if iou := float64(inter) / float64(union); iou < 0.985 {
			t.Errorf("placement %d: IoU of rendered document and quad = %.4f", i, iou)
		}
		for corner, m := range map[int]color.RGBA{geom.TL: markTL, geom.TR: markTR, geom.BL: markBL} {
			c, n := centroid(canvas, m)
			if n == 0 {
				t.Fatalf("placement %d: corner mark %d not visible", i, corner)
			}
			if got := nearestCorner(pl.quad, c); got != corner {
				t.Errorf("placement %d (turn %v): mark of corner %d lies nearest quad corner %d", i, pl.turn, corner, got)
			}
		}
		// the API corners follow from the lying corners through the code
		up := pl.turn.UprightOrder(pl.ly)
		for k := range up {
			if math.Hypot(up[k].X-pl.quad[k].X, up[k].Y-pl.quad[k].Y) > 1e-6 {
				t.Errorf("placement %d: UprightOrder(lying) = %v, quad = %v", i, up, pl.quad)
				break
			}
		}
	}
}

func TestRotationCodeUndoesTurn(t *testing.T) {
	fx := Effects{Turn: 1, Mirror: 8}
	g := newTestGenerator(t, Config{Seed: 4, Effects: fx})
	const W, H = 900, 900
	seen := map[geom.Rotation]bool{}
	for i := 0; i < 200 && len(seen) < 8; i++ {
		r := NewRand(4, uint64(i))
		d := markedDoc(420, 260)
		pl, err := g.placeOne(r, d, W, H, 8, false, fx)
		if err != nil {
			t.Fatal(err)
		}
		if seen[pl.turn] {
			continue
		}
		seen[pl.turn] = true
		canvas := image.NewRGBA(image.Rect(0, 0, W, H))
		fillRect(canvas, canvas.Rect, color.RGBA{0, 0, 0, 255})
		if err := g.composite(canvas, pl, r, true); err != nil {
			t.Fatal(err)
		}
		lw, lh := pl.ly.Size()
		var src [4][2]float64
		for k, p := range pl.ly {
			src[k] = [2]float64{p.X, p.Y}
		}
		hm, err := homography(src, [4][2]float64{{0, 0}, {lw, 0}, {0, lh}, {lw, lh}})
		if err != nil {
			t.Fatal(err)
		}
		crop, err := warp(canvas, hm, image.Rect(0, 0, int(math.Round(lw)), int(math.Round(lh))))
		if err != nil {
			t.Fatal(err)
		}
		up, err := Upright(crop, pl.turn)
		if err != nil {
			t.Fatal(err)
		}
		if up.Rect.Dx() < up.Rect.Dy() {
			t.Errorf("turn %v: upright crop is %v, want landscape like the document", pl.turn, up.Rect)
		}
		w, h := up.Rect.Dx(), up.Rect.Dy()
		for _, c := range []struct {
			x, y int
			m    color.RGBA
		}{{w / 10, h / 10, markTL}, {w - w/10, h / 10, markTR}, {w / 10, h - h/10, markBL}} {
			if got := up.RGBAAt(c.x, c.y); !near(got, c.m) {
				t.Errorf("turn %v: upright crop has %v at (%d,%d), want %v", pl.turn, got, c.x, c.y, c.m)
			}
		}
	}
	if len(seen) < 8 {
		t.Errorf("only %d of 8 rotation codes drawn", len(seen))
	}
}
