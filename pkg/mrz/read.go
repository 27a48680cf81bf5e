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
	// again is set when a zone that does not verify is read a second
	// time with its lines at their own width (WithSecondReading).
	again bool
	// lowest is set when the zone must end at the image's lowest rows
	// (WithZoneAtBottom).
	lowest bool
	// noNames is set when the holder's names are not wanted
	// (WithoutNames): the name line is read at its own width.
	noNames bool
}

// NewReader returns a Reader over a loaded engine.
func NewReader(e *ppocr.Engine) *Reader {
	return &Reader{e: e, cs: e.Charset(IsMRZChar)}
}

// WithSecondReading returns a Reader that reads a zone found whose check
// digits do not verify a second time, its lines recognised at their own
// width instead of twice it (blurred phone photos: see blurStretch), and
// keeps the reading with fewer failed check digits. It costs one more
// recognition of each candidate line where a zone is found but does not
// verify, and saves half the recognition where none is (the rows are read
// at their own width first, and only those that read like a zone's at
// twice it: see readRows): the extraction and the classifier's zone
// evidence both use it.
func (r *Reader) WithSecondReading() *Reader {
	c := *r
	c.again = true
	return &c
}

// WithZoneAtBottom returns a Reader WithSecondReading for images cut to
// the band where a zone can lie, whose lowest row is the zone's last line
// or a line of print under it: when neither of the two lowest candidate
// rows reads like a zone line at its own width, the rows above are not
// read (ErrNoZoneLines), and otherwise only runs of rows ending at one of
// those two are read as a zone. Dense print filling the band (a SNILS
// card's back) then costs two rows, not every row of the band; a Russian
// form whose Cyrillic lines read like a zone's with its alphabet, the
// rows of the runs that can end the band, not all eight.
func (r *Reader) WithZoneAtBottom() *Reader {
	c := *r.WithSecondReading()
	c.lowest = true
	return &c
}

// WithoutNames returns a Reader for callers that want the zone's document
// code, issuer and check digits but not the holder's names (the
// classifier): a Reader WithSecondReading reads the name line at its own
// width in its first pass, like the other lines, instead of at twice it,
// which only the names' letters need (no check digit covers them). On a
// passport's zone that is one recognition at twice the width saved; a
// zone that verifies but whose issuer, read so, is no state code has its
// name line read again at twice the width.
func (r *Reader) WithoutNames() *Reader {
	c := *r
	c.noNames = true
	return &c
}

// ErrNotFound reports that no machine-readable zone was found.
var ErrNotFound = errors.New("mrz: no machine-readable zone found")

// ErrNoZoneLines reports, for a Reader WithSecondReading, that the rows
// where a zone could lie were read and none reads like a zone line (see
// zoneLike): a finer search of the same image is unlikely to find one. It
// wraps ErrNotFound.
var ErrNoZoneLines = fmt.Errorf("%w: no row reads like a zone line", ErrNotFound)

// Reading is a zone read from an image.
type Reading struct {
	*Document
	// Rects are the lines' rectangles in the image's coordinates.
	Rects []image.Rectangle
	// Starts are the horizontal centres of each line's first character
	// and Pitch the mean distance between neighbouring characters, in
	// image pixels: where each character of the fixed grid lies.
	Starts []float64
	Pitch  float64
	// Confidence is the mean recognition probability of the zone's
	// characters.
	Confidence float64
	// Corrected counts the characters changed after recognition (look-
	// alike letters and digits fixed by field type or check digits).
	Corrected int
	// Lost counts, per line, the gaps between two neighbouring characters
	// (neither a filler) wide enough for a character the recogniser
	// dropped: such a line's text is not to be trusted where no check
	// digit covers it (the names).
	Lost []int
	// Refilled counts, per line, the characters the names' shape put
	// back (blurred fillers read as letters, a patronymic's 3 read as S:
	// see refillNames): the names of a line with any are not to be
	// trusted either.
	Refilled []int
}

// Read finds the zone in img (an upright crop of one document) and parses
// it. A zone whose check digits fail is still returned (see
// Document.Valid); ErrNotFound means no line looked like a zone.
func (r *Reader) Read(ctx context.Context, img image.Image) (*Reading, error) {
	return r.ReadWith(ctx, img, DetectOptions())
}

// ReadZone reads the zone of img (an upright crop of one document) for
// text that must be exact: its lines as parsed, their rectangles in img's
// pixels and the zone's confidence, only when every check digit verifies
// (a full-text reading takes its zone from here, ocr.ZoneReader).
func (r *Reader) ReadZone(ctx context.Context, img image.Image) ([]string, []image.Rectangle, float64, error) {
	rd, err := r.Read(ctx, img)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, nil, 0, nil
	case err != nil:
		return nil, nil, 0, err
	case !rd.Valid() || len(rd.Lines) != len(rd.Rects):
		return nil, nil, 0, nil
	}
	return rd.Lines, rd.Rects, rd.Confidence, nil
}

// ReadWith is Read with other detection options (a smaller MaxSide for a
// band of the document known to hold the zone is faster).
func (r *Reader) ReadWith(ctx context.Context, img image.Image, opt ppocr.DetectOptions) (*Reading, error) {
	m := ppocr.NewImage(img)
	boxes, err := r.e.Detect(ctx, m, opt)
	if err != nil {
		return nil, fmt.Errorf("mrz: %w", err)
	}
	return r.readImage(ctx, img, m, boxes, opt)
}

// ReadImageDetected is Read over the text lines already detected with
// DetectOptions on m, the models' copy of img: a caller that needs the
// lines for its own purpose detects once.
func (r *Reader) ReadImageDetected(ctx context.Context, img image.Image, m *ppocr.Image, boxes []ppocr.Box) (*Reading, error) {
	return r.readImage(ctx, img, m, boxes, DetectOptions())
}

// readImage reads the zone from the detected lines, and from the image
// levelled when its lines are slanted.
func (r *Reader) readImage(ctx context.Context, img image.Image, m *ppocr.Image, boxes []ppocr.Box, opt ppocr.DetectOptions) (*Reading, error) {
	rd, err := r.readRows(ctx, m, boxes)
	if (err != nil && !errors.Is(err, ErrNotFound)) || (rd != nil && rd.Valid()) {
		return rd, err
	}
	// Slanted lines (a hand-held photo) fill tall boxes that run into
	// each other: level the image and read again.
	angle, ok := zoneSlant(boxes, img.Bounds())
	if !ok {
		return rd, err
	}
	if errors.Is(err, ErrNoZoneLines) {
		// The rows were read before levelling: a finer search may still
		// find the zone.
		err = ErrNotFound
	}
	lv := newLeveller(img.Bounds(), angle)
	m2 := ppocr.NewImage(lv.level(img))
	boxes2, err2 := r.e.Detect(ctx, m2, opt)
	if err2 != nil {
		return nil, fmt.Errorf("mrz: %w", err2)
	}
	rd2, err2 := r.readRows(ctx, m2, boxes2)
	if err2 != nil && !errors.Is(err2, ErrNotFound) {
		return nil, err2
	}
	if rd2 != nil && (rd == nil || len(rd2.Failed()) < len(rd.Failed())) {
		lv.unlevel(rd2)
		return rd2, nil
	}
	return rd, err
}

// DetectOptions are the text-detection options Read uses; a caller that
// has already detected the lines of an image with them passes the boxes to
// ReadDetected instead of detecting twice.
func DetectOptions() ppocr.DetectOptions { return ppocr.DetectOptions{Upscale: true} }

// ReadDetected is Read over the text lines already detected on m with
// DetectOptions.
func (r *Reader) ReadDetected(ctx context.Context, m *ppocr.Image, boxes []ppocr.Box) (*Reading, error) {
	return readDetected(ctx, newRowReader(r, m, boxes, false), recStretch, recStretch)
}

// readDetected reads the zone from rr's candidate rows widened stretch
// times before recognition, a layout's name line names times.
func readDetected(ctx context.Context, rr *rowReader, stretch, names float64) (*Reading, error) {
	cand := rr.cand
	if len(cand) == 0 {
		return nil, ErrNotFound
	}
	// Lines are read lazily, bottom-most first (the zone ends the
	// document), and the search stops at the first run of lines with valid
	// check digits; otherwise the best-shaped run is kept.
	var best *Reading
	for end := len(cand); end > 0; end-- {
		if rr.lastEnds > 0 && end <= len(cand)-rr.lastEnds {
			break // the zone ends at one of the lowest rows
		}
		if !endsRun(cand[:end]) {
			continue // no layout's lines can end here: not worth reading
		}
		last, err := rr.line(ctx, end-1, stretch)
		if err != nil {
			return nil, err
		}
		if len(last.greedy.Chars) < 15 {
			continue
		}
		// Layouts whose line length is nearest the last line's count first.
		formats := []Format{TD3, TD2, TD1}
		sort.SliceStable(formats, func(a, b int) bool {
			_, la := formats[a].Shape()
			_, lb := formats[b].Shape()
			return abs(la-len(last.greedy.Chars)) < abs(lb-len(last.greedy.Chars))
		})
		for _, f := range formats {
			n, length := f.Shape()
			if end-n < 0 {
				continue
			}
			if !stacked(cand[end-n : end]) {
				continue
			}
			// Bottom line first; a line with under half the layout's
			// characters cannot be laid on its grid (zonePitch), so the
			// lines above it are not read.
			run := make([]zoneLine, n)
			short := false
			for i := end - 1; i >= end-n && !short; i-- {
				s := stretch
				if i-end+n == nameLine(f) {
					s = names
				}
				l, err := rr.line(ctx, i, s)
				if err != nil {
					return nil, err
				}
				run[i-end+n] = l
				short = len(l.greedy.Chars) < length/2
			}
			if short {
				continue
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

// assemble fits n recognised lines to a layout: each line laid on the
// fixed character grid, look-alikes fixed by field type and check digits.
// It returns nil when a line cannot have the layout's length.
func assemble(f Format, zl []zoneLine, length int) *Reading {
	lines := make([]ppocr.Line, len(zl))
	for i, z := range zl {
		lines[i] = z.fit(length)
	}
	pitch := zonePitch(lines, length)
	if pitch <= 0 {
		return nil
	}
	texts := make([]string, len(lines))
	probs := make([][]float64, len(lines))
	sum, n := 0.0, 0
	rd := &Reading{Pitch: pitch}
	for i, l := range lines {
		t, p, ok := grid(l, length, pitch)
		if !ok {
			return nil
		}
		texts[i], probs[i] = t, p
		rd.Rects = append(rd.Rects, l.Rect)
		rd.Starts = append(rd.Starts, l.Chars[0].X)
		rd.Lost = append(rd.Lost, lostChars(l, pitch))
		for _, c := range l.Chars {
			sum += c.Prob
			n++
		}
	}
	changed := rechoose(f, zl, lines, texts)
	rd.Refilled = make([]int, len(texts))
	name := nameLine(f)
	texts[name], rd.Refilled[name] = refillNames(f, texts[name], probs[name])
	changed += rd.Refilled[name]
	fixed, c := fixTypes(f, texts)
	changed += c
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

// zonePitch is the distance between neighbouring characters, the same on
// every line of a zone. A line whose last character is not a filler (the
// lines ending in a check digit) spans the whole grid, so its first and
// last characters give the pitch; recognition steps are too coarse to
// measure it between neighbours. Without such a line, the median
// neighbour distance serves.
func zonePitch(lines []ppocr.Line, length int) float64 {
	var spans, steps []float64
	for _, l := range lines {
		cs := l.Chars
		if len(cs) < length/2 || len(cs) > length {
			return 0
		}
		if cs[len(cs)-1].Rune != Filler && len(cs)*10 >= length*6 {
			spans = append(spans, (cs[len(cs)-1].X-cs[0].X)/float64(length-1))
		}
		for i := 1; i < len(cs); i++ {
			steps = append(steps, cs[i].X-cs[i-1].X)
		}
	}
	if len(spans) > 0 {
		sort.Float64s(spans)
		return spans[len(spans)/2]
	}
	if len(steps) == 0 {
		return 0
	}
	sort.Float64s(steps)
	return steps[len(steps)/2]
}

// lostChars counts gaps of more than 1.6 pitches between neighbouring
// characters that are not fillers.
func lostChars(l ppocr.Line, pitch float64) int {
	n := 0
	for i := 1; i < len(l.Chars); i++ {
		a, b := l.Chars[i-1], l.Chars[i]
		if a.Rune != Filler && b.Rune != Filler && b.X-a.X > 1.6*pitch {
			n++
		}
	}
	return n
}

// grid lays a recognised line on a line of length characters and gives
// each character's recognition probability (1 for a filler put back). An
// exact count is kept. A short line has lost fillers: the recogniser
// merges runs of '<'. Each run gets back the fillers its width implies
// (the zone is monospaced: the gap between the characters around a run,
// over the pitch), the largest shortfalls first, and what remains goes to
// the line's trailing run. Lines that lost other characters are left to
// the check digits to reject.
func grid(l ppocr.Line, length int, pitch float64) (string, []float64, bool) {
	cs := l.Chars
	missing := length - len(cs)
	switch {
	case missing == 0:
		probs := make([]float64, len(cs))
		for i, c := range cs {
			probs[i] = c.Prob
		}
		return l.Text, probs, true
	case missing < 0:
		return "", nil, false
	}
	type run struct {
		end     int     // index after the run's last '<'
		deficit float64 // slots the run's width implies, less its count
	}
	var runs []run
	for i := 0; i < len(cs); i++ {
		if cs[i].Rune != Filler {
			continue
		}
		j := i
		for j < len(cs) && cs[j].Rune == Filler {
			j++
		}
		r := run{end: j}
		if i > 0 && j < len(cs) {
			r.deficit = (cs[j].X-cs[i-1].X)/pitch - 1 - float64(j-i)
		} else if j == len(cs) {
			r.deficit = float64(missing) // the trailing run takes what the others leave
		}
		runs = append(runs, r)
		i = j
	}
	if len(runs) == 0 {
		return "", nil, false
	}
	// Whole slots first, largest shortfalls first; then one at a time to
	// the largest remaining shortfall.
	add := make(map[int]int)
	sort.SliceStable(runs, func(a, b int) bool { return runs[a].deficit > runs[b].deficit })
	for i := range runs {
		k := min(max(int(runs[i].deficit+0.5), 0), missing)
		if runs[i].end == len(cs) {
			continue
		}
		add[runs[i].end] += k
		runs[i].deficit -= float64(k)
		missing -= k
	}
	for ; missing > 0; missing-- {
		best := 0
		for i := range runs {
			if runs[i].deficit > runs[best].deficit {
				best = i
			}
		}
		if runs[best].deficit < -0.5 {
			return "", nil, false // no run is wide enough for another filler
		}
		add[runs[best].end]++
		runs[best].deficit--
	}
	var b strings.Builder
	probs := make([]float64, 0, length)
	for i, c := range cs {
		for range add[i] {
			b.WriteByte(Filler)
			probs = append(probs, 1)
		}
		b.WriteRune(c.Rune)
		probs = append(probs, c.Prob)
	}
	for range add[len(cs)] {
		b.WriteByte(Filler)
		probs = append(probs, 1)
	}
	return b.String(), probs, true
}

// Engine returns the PP-OCR engine the reader recognises with, for other
// readings of the same crop (digits of a document's visual zone).
func (r *Reader) Engine() *ppocr.Engine { return r.e }
