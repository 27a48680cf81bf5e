package crop

import "docsuite/pkg/geom"

// splitter cuts regions that fill their quadrilateral poorly into the
// documents they are made of, by eroding them further: a thin bridge
// between two documents whose outlines touch, a finger or a strip of
// paper leaking out of a card, melt away before the documents do. It
// holds scratch buffers for one page.
type splitter struct {
	w, h     int
	size     int
	interior []float32
	boundary []float32
	o        NeuralOptions
	// in marks the pixel set being worked on; seen the pixels already
	// labelled; rowMin and rowMax describe a region's rows, colMin and
	// colMax its columns. All are cleared after each use.
	in, seen       []bool
	rowMin, rowMax []int
	colMin, colMax []int
	minPixels      int
}

func newSplitter(interior, boundary []float32, size, w, h int, o NeuralOptions, minPixels int) *splitter {
	s := &splitter{w: w, h: h, size: size, interior: interior, boundary: boundary, o: o, minPixels: minPixels,
		in: make([]bool, w*h), seen: make([]bool, w*h), rowMin: make([]int, h), rowMax: make([]int, h),
		colMin: make([]int, w), colMax: make([]int, w)}
	for y := range h {
		s.rowMin[y], s.rowMax[y] = w, -1
	}
	for x := range w {
		s.colMin[x], s.colMax[x] = h, -1
	}
	return s
}

// piece is a region ready for the merging and the checks: its blob and
// how many pixels it was eroded by (its quad grows back by as much).
type piece struct {
	blob
	level int
}

// decompose returns the pieces a region (pixel indices, eroded level
// times) is made of. A region filling its quadrilateral less than CutFill
// is first cut along fainter outlines (CutOutlines, in turn): the parts
// replace it when they fill their quadrilaterals, weighted by area,
// CutGain better. A region filling its quadrilateral less than SplitFill
// is then eroded once more and each part left is decomposed in turn, up to
// MaxSplit erosions; those parts are kept when they fill their
// quadrilaterals SplitGain better than the region did.
func (s *splitter) decompose(px []int, level int) []piece {
	b := s.describe(px)
	f := blobFill(b)
	if f < s.o.CutFill {
		for _, t := range s.o.CutOutlines {
			cut := s.connected(s.cutSet(px, float32(t)))
			if len(cut) < 2 {
				continue
			}
			var parts []piece
			for _, c := range cut {
				parts = append(parts, s.decompose(c, level)...)
			}
			if weightedFill(parts) >= f+s.o.CutGain {
				return parts
			}
		}
	}
	if f >= s.o.SplitFill || level >= s.o.MaxSplit {
		return s.whole(px, b, f, level)
	}
	var parts []piece
	for _, c := range s.connected(s.erodeSet(px)) {
		parts = append(parts, s.decompose(c, level+1)...)
	}
	if len(parts) == 0 || weightedFill(parts) < f+s.o.SplitGain {
		return s.whole(px, b, f, level)
	}
	return parts
}

// whole returns a region that neither outlines nor erosion part as one
// piece, unless it fills its quadrilateral less than CutFill and a chord
// between its notches cuts it into documents (chordSplit).
func (s *splitter) whole(px []int, b blob, f float64, level int) []piece {
	if f < s.o.CutFill && !s.o.NoChords {
		if cut := s.chordSplit(px, b, f); cut != nil {
			var parts []piece
			for _, c := range cut {
				parts = append(parts, s.decompose(c, level)...)
			}
			return parts
		}
	}
	return []piece{{blob: b, level: level}}
}

// weightedFill is the area-weighted mean share of their quadrilaterals
// the pieces cover.
func weightedFill(parts []piece) float64 {
	sum, area := 0.0, 0.0
	for _, p := range parts {
		a := float64(p.area)
		sum += a * blobFill(p.blob)
		area += a
	}
	if area == 0 {
		return 0
	}
	return sum / area
}

// cutSet keeps the pixels of px where the outline probability is at most
// t.
func (s *splitter) cutSet(px []int, t float32) []int {
	var out []int
	for _, p := range px {
		if s.boundary[(p/s.w)*s.size+p%s.w] <= t {
			out = append(out, p)
		}
	}
	return out
}

// blobFill is the share of its enclosing quadrilateral a region covers
// (0 when it has none).
func blobFill(b blob) float64 {
	q, ok := reduceToQuad(convexHull(b.pts))
	if !ok || q.Area() <= 0 {
		return 0
	}
	return float64(b.area) / q.Area()
}

// erodeSet keeps the pixels of px whose four neighbours are in px too;
// pixels on the frame only need their neighbours inside the frame.
func (s *splitter) erodeSet(px []int) []int {
	w, h := s.w, s.h
	for _, p := range px {
		s.in[p] = true
	}
	var out []int
	for _, p := range px {
		x, y := p%w, p/w
		if (x == 0 || s.in[p-1]) && (x == w-1 || s.in[p+1]) && (y == 0 || s.in[p-w]) && (y == h-1 || s.in[p+w]) {
			out = append(out, p)
		}
	}
	for _, p := range px {
		s.in[p] = false
	}
	return out
}

// connected splits a pixel set into its 4-connected parts of at least
// minPixels pixels.
func (s *splitter) connected(px []int) [][]int {
	w := s.w
	for _, p := range px {
		s.in[p] = true
	}
	var out [][]int
	var stack []int
	// The components share one backing array: together they hold at most
	// px's pixels, so no component grows by copying (the chord search
	// calls this once per candidate cut).
	buf := make([]int, 0, len(px))
	for _, start := range px {
		if s.seen[start] {
			continue
		}
		s.seen[start] = true
		first := len(buf)
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			buf = append(buf, p)
			x := p % w
			for _, q := range [4]int{p - 1, p + 1, p - w, p + w} {
				if q < 0 || q >= len(s.in) || (q == p-1 && x == 0) || (q == p+1 && x == w-1) {
					continue
				}
				if s.in[q] && !s.seen[q] {
					s.seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		if comp := buf[first:len(buf):len(buf)]; len(comp) >= s.minPixels {
			out = append(out, comp)
		} else {
			buf = buf[:first]
		}
	}
	for _, p := range px {
		s.in[p], s.seen[p] = false, false
	}
	return out
}

// describe builds the blob of a pixel set: its rows' outer corners, the
// points of its outline seen along rows and columns, its area and its
// summed interior probability; seed is its first pixel.
func (s *splitter) describe(px []int) blob {
	b := blob{area: len(px)}
	if len(px) == 0 {
		return b
	}
	b.seed = px[0]
	y0, y1 := s.h, -1
	x0, x1 := s.w, -1
	for _, p := range px {
		x, y := p%s.w, p/s.w
		s.rowMin[y], s.rowMax[y] = min(s.rowMin[y], x), max(s.rowMax[y], x)
		s.colMin[x], s.colMax[x] = min(s.colMin[x], y), max(s.colMax[x], y)
		y0, y1 = min(y0, y), max(y1, y)
		x0, x1 = min(x0, x), max(x1, x)
		b.sum += float64(s.interior[y*s.size+x])
	}
	for x := x0; x <= x1; x++ {
		if s.colMax[x] >= 0 {
			fx := float64(x) + 0.5
			b.edge = append(b.edge, geom.Point{X: fx, Y: float64(s.colMin[x])}, geom.Point{X: fx, Y: float64(s.colMax[x] + 1)})
		}
		s.colMin[x], s.colMax[x] = s.h, -1
	}
	for y := y0; y <= y1; y++ {
		if s.rowMax[y] >= 0 {
			l, r := float64(s.rowMin[y]), float64(s.rowMax[y]+1)
			fy := float64(y)
			b.pts = append(b.pts, geom.Point{X: l, Y: fy}, geom.Point{X: l, Y: fy + 1},
				geom.Point{X: r, Y: fy}, geom.Point{X: r, Y: fy + 1})
			b.edge = append(b.edge, geom.Point{X: l, Y: fy + 0.5}, geom.Point{X: r, Y: fy + 0.5})
		}
		s.rowMin[y], s.rowMax[y] = s.w, -1
	}
	return b
}
