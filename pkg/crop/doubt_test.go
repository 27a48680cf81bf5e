package crop

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"docsuite/pkg/geom"
)

// TestDoubtfulRegions checks which faint regions get a closer look: those
// above DoubtThreshold, of doubtMinPixels or more, that no document found
// covers, largest first.
func TestDoubtfulRegions(t *testing.T) {
	const size = 64
	// A 1280 x 960 page letterboxed to 64 x 48: 20 page pixels a network
	// pixel.
	lb := letterboxed{w: 64, h: 48}
	page := image.Rect(0, 0, 1280, 960)
	m := make([]float32, size*size)
	paint := func(x0, y0, x1, y1 int, v float32) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				m[y*size+x] = v
			}
		}
	}
	paint(2, 2, 30, 22, 0.95)  // a document found
	paint(40, 30, 52, 40, 0.4) // a card half seen: 120 pixels
	paint(40, 5, 48, 11, 0.5)  // a smaller one: 48 pixels
	paint(56, 40, 62, 46, 0.6) // a speck: 36 pixels, under doubtMinPixels
	paint(32, 2, 38, 12, 0.2)  // under DoubtThreshold
	found := []placedRegion{{Found: Found{Quad: geom.Quad{{X: 40, Y: 40}, {X: 600, Y: 40}, {X: 40, Y: 440}, {X: 600, Y: 440}}}}}
	o := NeuralOptions{}.withDefaults()
	got := doubtfulRegions(m, size, lb, page, found, o)
	want := []image.Rectangle{image.Rect(40, 30, 52, 40), image.Rect(40, 5, 48, 11)}
	if len(got) != len(want) {
		t.Fatalf("%d doubtful regions %v, want %v", len(got), got, want)
	}
	for i, d := range got {
		if d.box != want[i] {
			t.Errorf("region %d: box %v, want %v", i, d.box, want[i])
		}
	}
	// Without the document found, its region is doubtful too, and first.
	if got := doubtfulRegions(m, size, lb, page, nil, o); len(got) != 3 || got[0].box != image.Rect(2, 2, 30, 22) {
		t.Errorf("without documents found: %v", got)
	}
	// A page more than half covered by interior, no document found in it,
	// is one page-filling document: its faint blocks are its parts.
	paint(0, 0, 64, 26, 0.9)
	if got := doubtfulRegions(m, size, lb, page, nil, o); len(got) != 0 {
		t.Errorf("a page taken whole: %d doubtful regions %v", len(got), got)
	}
	if got := doubtfulRegions(m, size, lb, page, found, o); len(got) == 0 {
		t.Error("a page half covered by documents found: no doubtful region")
	}
}

// TestDoubtWindow checks the part of the page a closer look takes: a
// square around the region with twice its size on every side, no larger
// than a ZoomMin (2) times closer look allows, kept inside the page.
func TestDoubtWindow(t *testing.T) {
	const size = 64
	lb := letterboxed{w: 64, h: 48}
	page := image.Rect(0, 0, 1280, 960)
	o := NeuralOptions{}.withDefaults()
	cases := []struct {
		name string
		box  image.Rectangle
		want image.Rectangle
		ok   bool
	}{
		// 4 x 3 px: a square 4 + 2*2*4 = 20 px wide around its centre
		// (22, 21.5).
		{"a small card", image.Rect(20, 20, 24, 23), image.Rect(12*20, 23*20/2, 32*20, 63*20/2), true},
		// 10 x 6 px: 50 px wanted, 32 px (64 / ZoomMin) taken.
		{"a larger card", image.Rect(30, 20, 40, 26), image.Rect(19*20, 7*20, 51*20, 39*20), true},
		// 20 px: the window could not be 40 px wide.
		{"a region too large for a closer look", image.Rect(10, 10, 30, 20), image.Rectangle{}, false},
		// In the corner the square is moved inside the page.
		{"a card in the corner", image.Rect(60, 45, 63, 47), image.Rect(49*20, 33*20, 64*20, 48*20), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := doubtWindow(doubtful{box: c.box}, size, lb, page, o)
			if ok != c.ok || got != c.want {
				t.Fatalf("window %v (%v), want %v (%v)", got, ok, c.want, c.ok)
			}
		})
	}
}

// TestNeuralLooksCloserAtSmallCards checks that small cards lying far from
// a large document, which the network half sees at its 320 pixels and the
// second look (ZoomMin) cannot bring closer, are found by a closer look
// at them, tightly, with the large document still found once.
func TestNeuralLooksCloserAtSmallCards(t *testing.T) {
	n := openNeural(t, NeuralOptions{})
	papers := []color.RGBA{{235, 232, 220, 255}, {120, 160, 120, 255}, {90, 110, 160, 255}}
	found := 0
	for i, paper := range papers {
		rng := rand.New(rand.NewPCG(7, 110))
		page := background(1600, 1000, texPlainDark, rng)
		bigQ := rectQuad(500, 450, 620, 440, 8)
		place(t, page, document(620, 440, color.RGBA{240, 238, 230, 255}, rng), bigQ)
		cardQ := rectQuad(1350, 800, 110, 110/1.586, -12)
		place(t, page, document(110, 69, paper, rng), cardQ)
		got, err := n.Find(context.Background(), page)
		if err != nil {
			t.Fatal(err)
		}
		big, card := 0, 0.0
		for _, f := range got {
			if geom.IoU(f.Quad, bigQ) > 0.9 {
				big++
			}
			card = max(card, geom.IoU(f.Quad, cardQ))
		}
		if big != 1 || len(got) > 2 {
			t.Errorf("paper %d: %d items, %d on the large document", i, len(got), big)
		}
		if card >= 0.85 {
			found++
		}
		t.Logf("paper %d: card IoU %.2f", i, card)
	}
	// The committed network finds all three this way and none in one look.
	if found < 2 {
		t.Errorf("%d of %d small cards found", found, len(papers))
	}
}

// TestLookCloserIgnoresCoins checks a closer look at a coin, which seen
// that close the network may take for a card (without doubtFill and
// doubtAspect the dark page below gets a second item), adds no document.
func TestLookCloserIgnoresCoins(t *testing.T) {
	n := openNeural(t, NeuralOptions{})
	for _, bg := range []int{texWood, texPlainDark} {
		rng := rand.New(rand.NewPCG(3, 3))
		page := background(1600, 1000, bg, rng)
		place(t, page, document(620, 440, color.RGBA{240, 238, 230, 255}, rng), rectQuad(500, 450, 620, 440, 8))
		coin(page, 1350, 800, 60, color.RGBA{190, 190, 195, 255})
		got, err := n.Find(context.Background(), page)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Errorf("background %d: %d items for one document and a coin: %v", bg, len(got), got)
		}
	}
}

// coin draws a disc of radius r centred at (cx, cy), darker towards its
// rim, with a dark rim 4 pixels wide.
func coin(img *image.RGBA, cx, cy, r int, c color.RGBA) {
	for y := cy - r; y < cy+r; y++ {
		for x := cx - r; x < cx+r; x++ {
			d2 := (x-cx)*(x-cx) + (y-cy)*(y-cy)
			if d2 > r*r {
				continue
			}
			k := 1 - 0.3*float64(d2)/float64(r*r)
			if d2 > (r-4)*(r-4) {
				k = 0.6
			}
			img.SetRGBA(x, y, color.RGBA{uint8(float64(c.R) * k), uint8(float64(c.G) * k), uint8(float64(c.B) * k), 255})
		}
	}
}
