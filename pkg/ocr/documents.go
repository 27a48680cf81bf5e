package ocr

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"slices"
	"sort"
	"strings"

	"github.com/otiai10/gosseract/v2"
	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// Cut is a document found on a page: where it lies and its image cut out
// and perspective-corrected (crop.Warp), as the cropper stores it.
type Cut struct {
	// Quad holds the page points of the crop's corners TL, TR, BL, BR as
	// cut (before any turn).
	Quad geom.Quad
	Img  image.Image
	// Turns, when known (the orienter's answer), are the quarter turns
	// clockwise that make the crop upright: it is read that way first.
	Turns int
}

// Document is one document of a page read document by document.
type Document struct {
	// Coords are the upright document's corners TL, TR, BL, BR on the
	// page, in page pixels.
	Coords [4][2]int `json:"coords"`
	// Rotation is how the crop as cut was turned to be read: 0 to 3
	// quarter turns clockwise (never mirrored).
	Rotation int `json:"rotation"`
}

// outsideCover is the share of a page the documents must cover for the
// rest of it not to be read: a margin is not worth a reading.
const outsideCover = 0.92

// ReadDocuments reads a page on which the cropper found documents: each
// document on its own crop, enlarged to minDocumentSide when smaller and
// turned upright as Read turns a page, read as sparse text (Tesseract's
// mode 11, which finds a card's scattered fields that one block of text
// misses) put back in reading order, one row a line of text; then the
// rest of the page with the documents blanked out, unless they cover
// almost all of it (outsideCover), read as Read reads a page. A photo's
// text is read from the document flattened and cut out, not from the
// whole photo at a slant over its background. The documents come in
// reading order (by their centres, top to bottom, then left to right),
// the text around them last, of which only lines mostly of legible words
// are kept (see legibleLine). Lines carry
// the document they were read on (1-based, 0 for the rest of the page),
// their block numbers (a document's rows, the rest's paragraphs) run on
// across the page, and every box is mapped back onto the page (exactly,
// through the crop's perspective), its corners in the order of the
// upright text. A document's machine-readable zone is read by zr (nil:
// as Tesseract reads it; see withZone). The page's text is the
// documents' and the rest's texts separated by blank lines.
// Page.Rotation is the turn of the rest of the page's reading, 0 when it
// was not read.
func (e *Engine) ReadDocuments(ctx context.Context, page image.Image, cuts []Cut, zr ZoneReader) (Page, error) {
	b := page.Bounds()
	out := Page{Width: b.Dx(), Height: b.Dy(), Lines: []Line{}, Documents: []Document{}}
	order := make([]int, len(cuts))
	covered := 0.0
	for i, c := range cuts {
		order[i] = i
		covered += c.Quad.Area()
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, c := cuts[order[i]].Quad.At(0.5, 0.5), cuts[order[j]].Quad.At(0.5, 0.5)
		if a.Y != c.Y {
			return a.Y < c.Y
		}
		return a.X < c.X
	})
	var texts []string
	block := 0
	// add appends the lines of a reading that keep keeps (all when nil)
	// and their text, numbering their blocks on from the page's.
	add := func(p Page, doc int, rows bool, keep func(Line) bool) {
		var kept []Line
		for _, l := range p.Lines {
			if keep == nil || keep(l) {
				kept = append(kept, l)
			}
		}
		if len(kept) == 0 {
			return
		}
		texts = append(texts, joinLines(kept, rows))
		for i, l := range kept {
			if i == 0 || l.Block != kept[i-1].Block {
				block++
			}
			l.Block, l.Document = block, doc
			out.Lines = append(out.Lines, l)
		}
	}
	for n, i := range order {
		c := cuts[i]
		img, err := enlarge(c.Img, minDocumentSide)
		if err != nil {
			return Page{}, err
		}
		cb := img.Bounds()
		w, h := float64(cb.Dx()), float64(cb.Dy())
		first := geom.NewRotation(c.Turns, false)
		if first != 0 {
			if img, err = cvimg.Turn(img, first); err != nil {
				return Page{}, fmt.Errorf("ocr: turn document: %w", err)
			}
		}
		p, err := e.readUpright(ctx, img, gosseract.PSM_SPARSE_TEXT)
		if err != nil {
			return Page{}, err
		}
		if p, _, err = withZone(ctx, zr, img, p, true); err != nil {
			return Page{}, err
		}
		// Boxes on the crop turned first, back onto the crop as cut, then
		// onto the page.
		back := first.Inverse()
		tw, th := float64(img.Bounds().Dx()), float64(img.Bounds().Dy())
		toPage := func(box [4][2]int) [4][2]int {
			if first != 0 {
				box = mapCorners(box, back, tw, th)
				for i := range box {
					box[i][0] += cb.Min.X
					box[i][1] += cb.Min.Y
				}
			}
			return project(box, c.Quad, cb.Min, w, h)
		}
		for li := range p.Lines {
			l := &p.Lines[li]
			l.Coords = toPage(l.Coords)
			for wi := range l.Words {
				l.Words[wi].Coords = toPage(l.Words[wi].Coords)
			}
		}
		turns := (c.Turns + p.Rotation) % 4
		up := geom.NewRotation(turns, false).UprightOrder(c.Quad)
		out.Documents = append(out.Documents, Document{Coords: [4][2]int(up.IntsWithin(b.Max.X, b.Max.Y)), Rotation: turns})
		add(p, n+1, true, nil)
	}
	if covered < outsideCover*float64(b.Dx()*b.Dy()) {
		if remains := blankOut(page, cuts); inked(remains) {
			rest, err := e.Read(ctx, remains)
			if err != nil {
				return Page{}, err
			}
			out.Rotation = rest.Rotation
			add(rest, 0, false, legibleLine)
		}
	}
	out.Text = strings.Join(texts, "\n\n")
	return out, nil
}

// minDocumentSide is the longer side, in pixels, a document's crop is
// enlarged to before it is read: a card photographed among other things
// is cut out at a few hundred pixels, its print too small for Tesseract
// (on the factory's photos, crops enlarged to 1200, 1600, 2000 and 2400
// pixels: 25.7, 29.0, 29.0 and 26.2 % of the values' words read).
const minDocumentSide = 1600

// enlarge scales img up (bicubic, grey) so that its longer side is at
// least side pixels; larger images come back as they are.
func enlarge(img image.Image, side int) (image.Image, error) {
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	if long >= side || long == 0 {
		return img, nil
	}
	g, err := cvimg.Gray(img)
	if err != nil {
		return nil, fmt.Errorf("ocr: enlarge document: %w", err)
	}
	defer g.Close()
	f := float64(side) / float64(long)
	up := gocv.NewMat()
	defer up.Close()
	gocv.Resize(g, &up, image.Pt(int(float64(b.Dx())*f+0.5), int(float64(b.Dy())*f+0.5)), 0, 0, gocv.InterpolationCubic)
	out, err := cvimg.ToImage(up)
	if err != nil {
		return nil, fmt.Errorf("ocr: enlarge document: %w", err)
	}
	return out, nil
}

// legibleLine says whether at least half of a line's letters are in words
// of legibleWord letters or more read with legibleConfidence or more: a
// table's or a wall's pattern reads as lines of scraps in which a word now
// and then passes (a real photo's background: "Pal PRL Gp Fue ... tag
// Fae thee Bing", "tag" read with confidence 0.6).
func legibleLine(l Line) bool {
	sure, all := letters([]Line{l})
	return sure >= legibleWord && 2*sure >= all
}

// project maps a box's corners from a crop (w x h pixels from min) onto
// the page through the quad it was cut from.
func project(box [4][2]int, q geom.Quad, min image.Point, w, h float64) [4][2]int {
	var out [4][2]int
	for i, c := range box {
		p := q.Project((float64(c[0]-min.X))/w, (float64(c[1]-min.Y))/h)
		out[i] = [2]int{int(p.X + 0.5), int(p.Y + 0.5)}
	}
	return out
}

// blankOut copies page with every document painted over, each grown by
// 2 % of its size so that its edges go too, in the colour around it (the
// median of the page along the document grown by 5 %): painted white on a
// grey table, Tesseract's threshold would take the table for ink and the
// text on it would be lost.
func blankOut(page image.Image, cuts []Cut) image.Image {
	b := page.Bounds()
	img := image.NewRGBA(b)
	draw.Draw(img, b, page, b.Min, draw.Src)
	for _, c := range cuts {
		fill := around(page, grow(c.Quad, 0.05))
		q := grow(c.Quad, 0.02)
		ring := q.Ring()
		r := q.FracBounds([4]float64{0, 0, 1, 1}).Inset(-1).Intersect(b)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if inside(ring, float64(x)+0.5, float64(y)+0.5) {
					img.SetRGBA(x, y, fill)
				}
			}
		}
	}
	return img
}

// around is the median colour of page along q's outline (the parts of it
// on the page; white when none is).
func around(page image.Image, q geom.Quad) color.RGBA {
	b := page.Bounds()
	ring := q.Ring()
	var rs, gs, bs []uint8
	for i := range ring {
		a, z := ring[i], ring[(i+1)%len(ring)]
		for s := 0; s < 100; s++ {
			f := float64(s) / 100
			p := image.Pt(int(a.X+(z.X-a.X)*f), int(a.Y+(z.Y-a.Y)*f))
			if !p.In(b) {
				continue
			}
			c := color.RGBAModel.Convert(page.At(p.X, p.Y)).(color.RGBA)
			rs, gs, bs = append(rs, c.R), append(gs, c.G), append(bs, c.B)
		}
	}
	if len(rs) == 0 {
		return color.RGBA{255, 255, 255, 255}
	}
	median := func(v []uint8) uint8 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	return color.RGBA{median(rs), median(gs), median(bs), 255}
}

// grow moves a quad's corners away from its centre by f of their
// distance.
func grow(q geom.Quad, f float64) geom.Quad {
	c := q.At(0.5, 0.5)
	for i, p := range q {
		q[i] = geom.Point{X: p.X + (p.X-c.X)*f, Y: p.Y + (p.Y-c.Y)*f}
	}
	return q
}

// inside says whether (x, y) lies inside the convex polygon ring (corners
// in order around it, either way round).
func inside(ring [4]geom.Point, x, y float64) bool {
	sign := 0.0
	for i := range ring {
		a, b := ring[i], ring[(i+1)%len(ring)]
		s := (b.X-a.X)*(y-a.Y) - (b.Y-a.Y)*(x-a.X)
		switch {
		case s == 0:
			continue
		case sign == 0:
			sign = s
		case (s > 0) != (sign > 0):
			return false
		}
	}
	return true
}
