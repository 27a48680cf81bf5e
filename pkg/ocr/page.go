package ocr

import (
	"context"
	"errors"
	"fmt"
	"image"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/otiai10/gosseract/v2"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// A reading is legible when at least legibleLetters of its letters, and
// at least legibleShare of them, are in words of legibleWord letters or
// more read with legibleConfidence or more: a page read the wrong way up
// comes back as many letters read with little confidence, or as short
// scraps. On the factory's scans (docs/accuracy-fulltext.md) readings the
// wrong way up with 30 such letters or more had at most 19 % of their
// letters in them, readings the right way 30 % or more but for one page
// with almost no text.
const (
	legibleConfidence = 0.6
	legibleWord       = 3
	legibleLetters    = 40
	legibleShare      = 0.3
	// clearShare is the share of sure letters above which a legible
	// reading is taken without asking the orientation detector. Below
	// it a page may be upside down: Latin print read upside down with
	// the Russian model comes back as Cyrillic words, read with
	// confidence, 35 % of its letters sure on a page of English (92 %
	// read upright).
	clearShare = 0.5
)

// maxReadings bounds the readings of a page whose orientation is in doubt.
const maxReadings = 3

// Read recognises the text of a page, turned upright first when its text
// stands on a side or upside down. The page is read as it lies; when that
// reading is legible but not clearly (see clearShare), it is kept unless
// the page read as Tesseract's orientation detector proposes has more
// sure letters. When it is not legible (see legibleLetters), the
// detector proposes a turn, and the page is read that way, then turned
// half round from it, up to maxReadings readings in all, stopping at the
// first legible one. Otherwise the reading with the most letters read with
// confidence is kept, and the page as it lies when none has
// legibleLetters (a page with little text is not turned on a guess), or
// when the detector finds too little text to propose a turn. Page.Rotation
// says how the page was turned; the boxes are in img's pixels, their
// corners in the order of the upright text. The page is read as one block
// of text (Tesseract's page segmentation mode 6), lines in blocks.
//
// A blank page (see blank: however grainy its scan) is not read at all
// and has no lines.
func (e *Engine) Read(ctx context.Context, img image.Image) (Page, error) {
	if blank(img) {
		b := img.Bounds()
		return Page{Width: b.Dx(), Height: b.Dy(), Lines: []Line{}, Documents: []Document{}}, nil
	}
	return e.readUpright(ctx, img, gosseract.PSM_SINGLE_BLOCK)
}

// readMaxSide is the longer side, in pixels, that a page or a document is
// shrunk to before it is read: an A4 page at 360 dpi, an A3 one at 250.
// Print a page this large still holds is legible at that size (the
// orientation detector reads pages at osdMaxSide), and Tesseract's work on
// a larger one grows with its pixels: a 6615 x 9000 page kept a core
// busy for minutes, past PIPELINE_TIMEOUT.
const readMaxSide = 4200

// readUpright is Read in page segmentation mode psm. A page larger than
// readMaxSide is read shrunk to it, its boxes mapped back onto its pixels.
func (e *Engine) readUpright(ctx context.Context, img image.Image, psm gosseract.PageSegMode) (Page, error) {
	b := img.Bounds()
	small, f, err := shrink(img, readMaxSide)
	if err != nil {
		return Page{}, err
	}
	p, err := e.readUprightAsIs(ctx, small, psm)
	if err != nil || f == 1 {
		return p, err
	}
	return scaled(p, 1/f, b.Dx(), b.Dy()), nil
}

// readUprightAsIs is readUpright on the page at the size it has.
func (e *Engine) readUprightAsIs(ctx context.Context, img image.Image, psm gosseract.PageSegMode) (Page, error) {
	w, err := e.acquire(ctx)
	if err != nil {
		return Page{}, err
	}
	defer func() { e.idle <- w }()
	lying, err := readTurned(ctx, w.c, img, 0, psm)
	if err != nil {
		return Page{}, err
	}
	sure, all := letters(lying.Lines)
	lyingLegible := legible(sure, all)
	if lyingLegible && float64(sure) >= clearShare*float64(all) {
		return lying, nil
	}
	if w.osd == nil {
		if w.osd, err = newOSD(); err != nil {
			return Page{}, err
		}
	}
	k, err := w.osd.detect(img)
	switch {
	case errors.Is(err, errNoOrientation):
		return lying, nil
	case err != nil:
		return Page{}, err
	}
	if lyingLegible {
		// Legible, but not clearly: read the way the detector proposes
		// too, and keep the reading with more sure letters.
		if k == 0 {
			return lying, nil
		}
		p, err := readTurned(ctx, w.c, img, k, psm)
		if err != nil {
			return Page{}, err
		}
		if s, _ := letters(p.Lines); s > sure {
			return p, nil
		}
		return lying, nil
	}
	if k == 0 && sure >= legibleLetters {
		// The detector sees the page upright and the reading has enough
		// sure words to agree: its print is hard to read (a guilloche
		// background, a poor scan), not turned, and reading it three
		// more ways (11 s each on such a page) would find nothing better.
		return lying, nil
	}
	best, bestLetters := lying, 0
	if sure >= legibleLetters {
		bestLetters = sure
	}
	read := map[int]bool{0: true}
	for _, r := range []int{k, (k + 2) % 4, 1, 3} {
		if read[r] || len(read) == maxReadings {
			continue
		}
		read[r] = true
		if err := ctx.Err(); err != nil {
			return Page{}, err
		}
		p, err := readTurned(ctx, w.c, img, r, psm)
		if err != nil {
			return Page{}, err
		}
		sure, all := letters(p.Lines)
		if legible(sure, all) {
			return p, nil
		}
		if sure >= legibleLetters && sure > bestLetters {
			best, bestLetters = p, sure
		}
	}
	return best, nil
}

// legible says whether a reading with sure letters read with confidence
// of all it read is legible.
func legible(sure, all int) bool {
	return sure >= legibleLetters && float64(sure) >= legibleShare*float64(all)
}

// letters counts the letters of a reading's words of at least
// legibleWord letters read with at least legibleConfidence, and all its
// letters. Short words do not count as legible: text lying on its side is
// read as rows of single strokes and blobs, "о", "=", "5", some with
// confidence.
func letters(lines []Line) (sure, all int) {
	for _, l := range lines {
		for _, w := range l.Words {
			n := utf8.RuneCountInString(w.Text)
			all += n
			if n >= legibleWord && w.Confidence >= legibleConfidence {
				sure += n
			}
		}
	}
	return sure, all
}

// readTurned reads img turned k quarter turns clockwise in page
// segmentation mode psm and maps the boxes back onto img's pixels. The
// reading stops between words when ctx ends (see recognise).
func readTurned(ctx context.Context, c *gosseract.Client, img image.Image, k int, psm gosseract.PageSegMode) (Page, error) {
	b := img.Bounds()
	rot := geom.NewRotation(k, false)
	src, err := cvimg.Turn(img, rot)
	if err != nil {
		return Page{}, fmt.Errorf("ocr: turn the page upright: %w", err)
	}
	boxes, err := recognise(ctx, c, pnm(src), psm)
	if err != nil {
		return Page{}, err
	}
	page := Page{Width: b.Dx(), Height: b.Dy(), Rotation: k, Lines: group(boxes), Documents: []Document{}}
	sparse := psm == gosseract.PSM_SPARSE_TEXT
	if sparse {
		inRows(page.Lines)
	}
	if k != 0 {
		back := rot.Inverse()
		sb := src.Bounds()
		tw, th := float64(sb.Dx()), float64(sb.Dy())
		for i := range page.Lines {
			l := &page.Lines[i]
			l.Coords = mapCorners(l.Coords, back, tw, th)
			for j := range l.Words {
				l.Words[j].Coords = mapCorners(l.Words[j].Coords, back, tw, th)
			}
		}
	}
	page.Text = joinLines(page.Lines, sparse)
	return page, nil
}

// joinLines is the plain text of lines: a page read as blocks has its
// lines one to a row and a blank row between blocks; a sparse reading
// (rows) has the lines of a row on one row, separated by spaces.
func joinLines(lines []Line, rows bool) string {
	sep, blockSep := "\n", "\n\n"
	if rows {
		sep, blockSep = " ", "\n"
	}
	var text strings.Builder
	for i, l := range lines {
		if i > 0 {
			if l.Block != lines[i-1].Block {
				text.WriteString(blockSep)
			} else {
				text.WriteString(sep)
			}
		}
		text.WriteString(l.Text)
	}
	return text.String()
}

// inRows puts the lines of a sparse reading (Tesseract's mode 11 finds
// text in no reading order) in reading order: rows from the top, a line
// joining the row whose first line its middle lies beside, each row from
// the left; a line's Block becomes its row's number, from 1.
func inRows(lines []Line) {
	top := func(l Line) int { return l.Coords[0][1] }
	bottom := func(l Line) int { return l.Coords[3][1] }
	sort.SliceStable(lines, func(i, j int) bool { return top(lines[i]) < top(lines[j]) })
	row, start := 0, 0
	for i := range lines {
		mid := (top(lines[i]) + bottom(lines[i])) / 2
		if i == 0 || mid > bottom(lines[start]) {
			row++
			start = i
		}
		lines[i].Block = row
	}
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].Block != lines[j].Block {
			return lines[i].Block < lines[j].Block
		}
		return lines[i].Coords[0][0] < lines[j].Coords[0][0]
	})
}

// mapCorners maps the corners of a box read on the turned page (w x h)
// back through r onto the page as it lies; the corners keep their order,
// that of the upright text.
func mapCorners(q [4][2]int, r geom.Rotation, w, h float64) [4][2]int {
	var out [4][2]int
	for i, c := range q {
		p, _, _ := r.MapPoint(geom.Point{X: float64(c[0]), Y: float64(c[1])}, w, h)
		out[i] = [2]int{int(p.X + 0.5), int(p.Y + 0.5)}
	}
	return out
}

// group collects words into lines in reading order.
func group(boxes []gosseract.BoundingBox) []Line {
	type key struct{ block, par, line int }
	lines := map[key]*Line{}
	var order []key
	for _, bx := range boxes {
		w := strings.TrimSpace(bx.Word)
		if w == "" {
			continue
		}
		k := key{bx.BlockNum, bx.ParNum, bx.LineNum}
		l, ok := lines[k]
		if !ok {
			l = &Line{Block: bx.BlockNum}
			lines[k] = l
			order = append(order, k)
		}
		l.Words = append(l.Words, Word{Text: w, Confidence: round3(bx.Confidence / 100), Coords: quad(bx.Box)})
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.block != b.block {
			return a.block < b.block
		}
		if a.par != b.par {
			return a.par < b.par
		}
		return a.line < b.line
	})
	out := make([]Line, 0, len(order))
	for _, k := range order {
		l := lines[k]
		r := image.Rectangle{}
		texts := make([]string, len(l.Words))
		sum := 0.0
		for i, w := range l.Words {
			texts[i] = w.Text
			sum += w.Confidence
			wr := image.Rect(w.Coords[0][0], w.Coords[0][1], w.Coords[3][0], w.Coords[3][1])
			if i == 0 {
				r = wr
			} else {
				r = r.Union(wr)
			}
		}
		l.Text = strings.Join(texts, " ")
		l.Confidence = round3(sum / float64(len(l.Words)))
		l.Coords = quad(r)
		out = append(out, *l)
	}
	return out
}
