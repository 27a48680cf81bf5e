package crop

import (
	"math"
	"testing"

	"docsuite/pkg/geom"
)

// drawMaps rasterises documents (later ones on top) into the two maps the
// network is trained to predict: interior (union of the documents) and
// the visible 3 px outline band, as scripts/train_cropnet_data.py draws them.
func drawMaps(size int, docs []geom.Quad) (interior, boundary []float32) {
	interior = make([]float32, size*size)
	boundary = make([]float32, size*size)
	for y := range size {
		for x := range size {
			p := geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
			for i := len(docs) - 1; i >= 0; i-- {
				r := docs[i].Ring()
				if distToRing(p, r[:]) <= 1.5 {
					boundary[y*size+x] = 1
				}
				if insideConvex(p, r[:]) {
					interior[y*size+x] = 1
					break // covers the outlines of the documents below
				}
			}
		}
	}
	return interior, boundary
}

func insideConvex(p geom.Point, r []geom.Point) bool {
	pos, neg := false, false
	for i := range r {
		c := geom.Cross(r[i], r[(i+1)%len(r)], p)
		pos = pos || c > 0
		neg = neg || c < 0
	}
	return !(pos && neg)
}

func distToRing(p geom.Point, r []geom.Point) float64 {
	d := math.Inf(1)
	for i := range r {
		a, b := r[i], r[(i+1)%len(r)]
		dx, dy := b.X-a.X, b.Y-a.Y
		t := math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/(dx*dx+dy*dy)))
		d = math.Min(d, math.Hypot(p.X-a.X-t*dx, p.Y-a.Y-t*dy))
	}
	return d
}

// rotRect is a w x h rectangle centred at (cx, cy) turned by deg degrees.
func rotRect(cx, cy, w, h, deg float64) geom.Quad {
	s, c := math.Sincos(deg * math.Pi / 180)
	var pts [4]geom.Point
	for i, d := range [4][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		x, y := d[0]*w/2, d[1]*h/2
		pts[i] = geom.Point{X: cx + x*c - y*s, Y: cy + x*s + y*c}
	}
	return OrderCorners(pts)
}

func TestSegmentFindsEachDocument(t *testing.T) {
	cases := []struct {
		name string
		docs []geom.Quad
		// want are the quads expected back; nil entries of docs are junk.
		want   []geom.Quad
		minIoU float64
	}{
		{name: "one turned card", docs: []geom.Quad{rotRect(120, 110, 120, 76, 17)}, minIoU: 0.97},
		{name: "two touching sheets", docs: []geom.Quad{rotRect(70, 128, 100, 140, 0), rotRect(175, 128, 100, 140, 12)}, minIoU: 0.93},
		{name: "a card overlapping another's corner", docs: []geom.Quad{rotRect(100, 100, 120, 80, 5), rotRect(175, 160, 110, 75, -8)}, minIoU: 0.95},
		{name: "four small cards", docs: []geom.Quad{rotRect(60, 60, 60, 38, 30), rotRect(190, 60, 60, 38, -20),
			rotRect(60, 190, 60, 38, 80), rotRect(190, 190, 60, 38, 0)}, minIoU: 0.93},
		{name: "a sheet cut by the frame", docs: []geom.Quad{{{X: -30, Y: 40}, {X: 150, Y: 30}, {X: -20, Y: 240}, {X: 160, Y: 230}}},
			want: []geom.Quad{{{X: 0, Y: 38.3}, {X: 150, Y: 30}, {X: 0, Y: 238.9}, {X: 160, Y: 230}}}, minIoU: 0.95},
	}
	const size = 256
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, tc.docs)
			got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
			want := tc.want
			if want == nil {
				want = tc.docs
			}
			if len(got) != len(want) {
				t.Fatalf("found %d documents, want %d", len(got), len(want))
			}
			for _, w := range want {
				best := bestIoU(w, got)
				if best < tc.minIoU {
					t.Errorf("document %v: best IoU %.3f < %.2f (found %v)", w, best, tc.minIoU, got)
				}
			}
		})
	}
}

func TestSegmentRejectsJunk(t *testing.T) {
	const size = 256
	cases := []struct {
		name  string
		paint func(x, y int) bool
	}{
		{name: "L-shaped blob (a hand, a cable)", paint: func(x, y int) bool {
			return (x > 40 && x < 80 && y > 30 && y < 220) || (x > 40 && y > 180 && y < 220 && x < 220)
		}},
		{name: "speck", paint: func(x, y int) bool { return x > 100 && x < 106 && y > 100 && y < 104 }},
		{name: "thin line (a pen)", paint: func(x, y int) bool { return x > 20 && x < 236 && y > 120 && y < 127 }},
		{name: "nothing", paint: func(x, y int) bool { return false }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := make([]float32, size*size)
			bd := make([]float32, size*size)
			for y := range size {
				for x := range size {
					if tc.paint(x, y) {
						in[y*size+x] = 0.9
					}
				}
			}
			if got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults()); len(got) != 0 {
				t.Errorf("found %d documents in junk: %v", len(got), got)
			}
		})
	}
}

func TestReduceToQuadRestoresCutCorner(t *testing.T) {
	// A 100 x 60 rectangle with its bottom-right corner cut off.
	poly := []geom.Point{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 100, Y: 40}, {X: 80, Y: 60}, {X: 0, Y: 60}}
	q, ok := reduceToQuad(poly)
	if !ok {
		t.Fatal("no quad")
	}
	want := geom.Quad{{X: 0, Y: 0}, {X: 100, Y: 0}, {X: 0, Y: 60}, {X: 100, Y: 60}}
	for i := range q {
		if math.Hypot(q[i].X-want[i].X, q[i].Y-want[i].Y) > 1e-6 {
			t.Fatalf("got %v, want %v", q, want)
		}
	}
}

func TestOffsetQuad(t *testing.T) {
	q := geom.Quad{{X: 10, Y: 10}, {X: 50, Y: 10}, {X: 10, Y: 30}, {X: 50, Y: 30}}
	for _, d := range []float64{2, -2} {
		got := offsetQuad(q, d)
		want := geom.Quad{{X: 10 - d, Y: 10 - d}, {X: 50 + d, Y: 10 - d}, {X: 10 - d, Y: 30 + d}, {X: 50 + d, Y: 30 + d}}
		for i := range got {
			if math.Hypot(got[i].X-want[i].X, got[i].Y-want[i].Y) > 1e-9 {
				t.Errorf("offset %v: got %v, want %v", d, got, want)
				break
			}
		}
	}
}

// TestSegmentKeepsASpreadWhole checks that a passport spread whose fold the
// network marks like an outline is still one document: its two pages
// together fill their enclosing quad.
func TestSegmentKeepsASpreadWhole(t *testing.T) {
	const size = 256
	spread := rotRect(128, 128, 120, 170, 8)
	in, bd := drawMaps(size, []geom.Quad{spread})
	r := spread.Ring()
	mid0 := geom.Point{X: (r[0].X + r[3].X) / 2, Y: (r[0].Y + r[3].Y) / 2}
	mid1 := geom.Point{X: (r[1].X + r[2].X) / 2, Y: (r[1].Y + r[2].Y) / 2}
	for y := range size {
		for x := range size {
			p := geom.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
			if distToRing(p, []geom.Point{mid0, mid1}) <= 1.5 {
				bd[y*size+x] = 1
			}
		}
	}
	got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
	if len(got) != 1 || geom.IoU(got[0].quad, spread) < 0.95 {
		t.Fatalf("got %v, want the spread %v as one document", got, spread)
	}
}

// TestSegmentPageFill checks the page-filling rule: a page more than half
// covered by interior is one document (nil) unless documents clear of the
// frame, or outlined all round, make up that interior.
func TestSegmentPageFill(t *testing.T) {
	const size = 256
	cases := []struct {
		name string
		docs []geom.Quad
		// split, when set, draws an outline across the first document
		// (a line printed on a scan that the network takes for an edge).
		split bool
		want  int
	}{
		{name: "two cards filling a small table", docs: []geom.Quad{rotRect(128, 66, 236, 118, 0), rotRect(128, 190, 236, 118, 0)}, want: 2},
		{name: "two pages side by side", docs: []geom.Quad{rotRect(66, 128, 118, 236, 1), rotRect(190, 128, 118, 236, -1)}, want: 2},
		{name: "a scan cut in two by a printed line", docs: []geom.Quad{rotRect(128, 128, 256, 256, 0)}, split: true, want: 0},
		{name: "a scan filling the frame", docs: []geom.Quad{rotRect(128, 128, 256, 256, 0)}, want: 0},
		{name: "a card above a spread at the frame's edge", docs: []geom.Quad{rotRect(90, 48, 150, 80, 0), rotRect(128, 170, 254, 160, 0)}, want: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, tc.docs)
			if tc.split {
				for x := range size {
					for y := 170; y < 173; y++ {
						bd[y*size+x] = 1
					}
				}
			}
			if got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults()); len(got) != tc.want {
				t.Errorf("found %d documents, want %d: %v", len(got), tc.want, got)
			}
		})
	}
}

// TestRejectOutlinedFill checks that a region the network outlines all
// round and believes in may fill its quadrilateral less (a small card),
// while one without that evidence may not.
func TestRejectOutlinedFill(t *testing.T) {
	o := NeuralOptions{}.withDefaults()
	q := rotRect(128, 128, 90, 58, 5)
	cases := []struct {
		name                 string
		fill, outline, score float64
		want                 string
	}{
		{"small card outlined all round", 0.6, 0.9, 0.95, ""},
		{"same fill, outline seen on half", 0.6, 0.6, 0.95, "fill"},
		{"same fill, interior doubted", 0.6, 0.9, 0.8, "fill"},
		{"too little even outlined", 0.5, 0.95, 0.99, "fill"},
		{"well filled", 0.8, 0.6, 0.8, ""},
	}
	for _, c := range cases {
		cand := netCandidate{region: region{quad: q, score: c.score, area: q.Area(), fill: c.fill}, outline: c.outline}
		if got := cand.reject(o, 256*256); got != c.want {
			t.Errorf("%s: reject %q, want %q", c.name, got, c.want)
		}
	}
}

// bestIoU is the best IoU of the quad d with any of the regions found.
func bestIoU(d geom.Quad, got []region) float64 {
	best := 0.0
	for _, g := range got {
		best = math.Max(best, geom.IoU(d, g.quad))
	}
	return best
}

// TestSegmentFrameCut checks what a region at the picture's edge is: a
// small piece the frame cuts off (no outline along the frame: a margin of
// a document filling the frame, a corner of one out of the picture) is
// too little to name and is not returned, so the page stays one item;
// a card lying whole against the frame (outlined there too) and a large
// piece of a close-up are documents.
func TestSegmentFrameCut(t *testing.T) {
	const size = 256
	card := geom.Quad{{X: 0, Y: 100}, {X: 24, Y: 100}, {X: 0, Y: 160}, {X: 24, Y: 160}}
	closeUp := geom.Quad{{X: 0, Y: 40}, {X: 120, Y: 40}, {X: 0, Y: 200}, {X: 120, Y: 200}}
	cases := []struct {
		name       string
		doc        geom.Quad
		frameEdged bool // the network outlines the side along the frame
		want       int
	}{
		{"small piece cut off by the frame", card, false, 0},
		{"small card lying whole against the frame", card, true, 1},
		{"large piece of a close-up cut by the frame", closeUp, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, bd := drawMaps(size, []geom.Quad{tc.doc})
			if !tc.frameEdged {
				for y := range size {
					bd[y*size], bd[y*size+1] = 0, 0
				}
			}
			got := segment(in, bd, size, size, size, NeuralOptions{}.withDefaults())
			if len(got) != tc.want {
				t.Fatalf("found %d documents, want %d: %v", len(got), tc.want, got)
			}
		})
	}
}
