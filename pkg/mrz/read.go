package mrz

import (
	"context"
	"errors"
	"fmt"
	"image"
	"sort"
	"strings"

	"docsuite/pkg/ppocr"
)

// Reader finds and reads the machine-readable zone of an upright document
// image with the PP-OCRv4 models, recognition limited to A-Z, 0-9 and
// '<'. It is safe for concurrent use.
type Reader struct {
	e  *ppocr.Engine
	cs ppocr.Charset
}

// NewReader returns a Reader over a loaded engine.
func NewReader(e *ppocr.Engine) *Reader {
	return &Reader{e: e, cs: e.Charset(IsMRZChar)}
}

// ErrNotFound reports that no machine-readable zone was found.
var ErrNotFound = errors.New("mrz: no machine-readable zone found")

// Reading is a zone read from an image.
type Reading struct {
	*Document
	// Rects are the lines' rectangles in the image's coordinates.
	Rects []image.Rectangle
	// Confidence is the mean recognition probability of the zone's
	// characters.
	Confidence float64
	// Corrected counts the characters changed after recognition (look-
	// alike letters and digits fixed by field type or check digits).
	Corrected int
}

// Read finds the zone in img (an upright crop of one document) and parses
// it. A zone whose check digits fail is still returned (see
// Document.Valid); ErrNotFound means no line looked like a zone.
func (r *Reader) Read(ctx context.Context, img image.Image) (*Reading, error) {
	b := img.Bounds()
	m := ppocr.NewImage(img)
	boxes, err := r.e.Detect(ctx, m, ppocr.DetectOptions{Upscale: true})
	if err != nil {
		return nil, fmt.Errorf("mrz: %w", err)
	}
	rows := mergeRows(boxes)
	// Zone lines are long and thin and span most of the document's width.
	var cand []image.Rectangle
	for _, rr := range rows {
		if rr.Dx() >= 10*rr.Dy() && rr.Dx()*10 >= b.Dx()*3 {
			cand = append(cand, rr)
		}
	}
	if len(cand) == 0 {
		return nil, ErrNotFound
	}
	// Lines are read lazily, bottom-most first (the zone ends the
	// document), and the search stops at the first run of lines with valid
	// check digits; otherwise the best-shaped run is kept.
	lines := make([]*ppocr.Line, len(cand))
	read := func(i int) (ppocr.Line, error) {
		if lines[i] == nil {
			l, err := r.e.Recognize(ctx, m, cand[i], r.cs)
			if err != nil {
				return l, fmt.Errorf("mrz: %w", err)
			}
			lines[i] = &l
		}
		return *lines[i], nil
	}
	var best *Reading
	for end := len(cand); end > 0; end-- {
		last, err := read(end - 1)
		if err != nil {
			return nil, err
		}
		if len(last.Chars) < 15 {
			continue
		}
		for _, f := range []Format{TD3, TD2, TD1} {
			n, length := f.Shape()
			if end-n < 0 {
				continue
			}
			run := make([]ppocr.Line, 0, n)
			for i := end - n; i < end; i++ {
				l, err := read(i)
				if err != nil {
					return nil, err
				}
				run = append(run, l)
			}
			rd := assemble(f, run, length)
			if rd == nil {
				continue
			}
			if rd.Valid() {
				return rd, nil
			}
			if best == nil || len(rd.Failed()) < len(best.Failed()) {
				best = rd
			}
		}
	}
	if best == nil || best.Confidence < 0.5 {
		return nil, ErrNotFound
	}
	return best, nil
}

// mergeRows joins boxes that lie on one text row with small gaps between
// them (the detector sometimes splits a zone line at runs of fillers).
func mergeRows(boxes []ppocr.Box) []image.Rectangle {
	rs := make([]image.Rectangle, len(boxes))
	for i, b := range boxes {
		rs[i] = b.Rect
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Min.X < rs[j].Min.X })
	var out []image.Rectangle
	used := make([]bool, len(rs))
	for i := range rs {
		if used[i] {
			continue
		}
		cur := rs[i]
		used[i] = true
		for j := i + 1; j < len(rs); j++ {
			if used[j] {
				continue
			}
			o := rs[j]
			ov := min(cur.Max.Y, o.Max.Y) - max(cur.Min.Y, o.Min.Y)
			h := min(cur.Dy(), o.Dy())
			if ov*10 >= h*7 && o.Min.X-cur.Max.X <= 2*h && abs(cur.Dy()-o.Dy())*3 <= h {
				cur = cur.Union(o)
				used[j] = true
			}
		}
		out = append(out, cur)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Min.Y < out[j].Min.Y })
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// assemble fits n recognised lines to a layout: each line laid on the
// fixed character grid, look-alikes fixed by field type and check digits.
// It returns nil when a line cannot have the layout's length.
func assemble(f Format, lines []ppocr.Line, length int) *Reading {
	texts := make([]string, len(lines))
	sum, n := 0.0, 0
	rd := &Reading{}
	for i, l := range lines {
		t, ok := grid(l, length)
		if !ok {
			return nil
		}
		texts[i] = t
		rd.Rects = append(rd.Rects, l.Rect)
		for _, c := range l.Chars {
			sum += c.Prob
			n++
		}
	}
	fixed, changed := fixTypes(f, texts)
	d, err := Parse(fixed...)
	if err != nil {
		return nil
	}
	if !d.Valid() {
		if d2, c2 := repairChecks(d); d2 != nil {
			d, changed = d2, changed+c2
		}
	}
	rd.Document = d
	rd.Corrected = changed
	if n > 0 {
		rd.Confidence = sum / float64(n)
	}
	return rd
}

// grid lays a recognised line on a line of length characters: an exact
// count is kept; otherwise each character goes to the slot its position
// implies (the zone is monospaced) and empty slots are fillers, which is
// how runs of '<' merged by the recogniser are restored.
func grid(l ppocr.Line, length int) (string, bool) {
	cs := l.Chars
	if len(cs) == length {
		return l.Text, true
	}
	if len(cs) < length/2 || len(cs) > length {
		return "", false
	}
	// The character pitch: the median distance between neighbours whose
	// spacing is not a merged run.
	d := make([]float64, 0, len(cs))
	for i := 1; i < len(cs); i++ {
		d = append(d, cs[i].X-cs[i-1].X)
	}
	sort.Float64s(d)
	if len(d) == 0 || d[len(d)/2] <= 0 {
		return "", false
	}
	pitch := d[len(d)/2]
	// When the last character sits in the last slot, the span fits the
	// pitch better than the median.
	if n := (cs[len(cs)-1].X - cs[0].X) / float64(length-1); n > pitch*0.9 && n < pitch*1.1 {
		pitch = n
	}
	out := []byte(strings.Repeat("<", length))
	last := -1
	for _, c := range cs {
		slot := int((c.X-cs[0].X)/pitch + 0.5)
		if slot <= last {
			slot = last + 1
		}
		if slot >= length {
			return "", false
		}
		out[slot] = byte(c.Rune)
		last = slot
	}
	return string(out), true
}
