package orient

import (
	"context"
	"image"
	"image/draw"
	"math"
	"sort"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/prob"
)

// The text-line reading of the orientation. PP-OCR's detector finds the
// text lines of the crop whatever their direction: lines taller than wide
// mean the text runs vertically, and a quarter turn lays it flat. The
// longest flat lines are then read by PP-OCR's recogniser as they lie,
// turned half round, mirrored and both: real text reads with confidence
// only the right way up and the right way round. The recogniser knows
// Latin letters and digits, which Cyrillic capitals and every document's
// dates and numbers share; it was trained on photographs of real text, so
// this reading holds on real documents where docnet's layout reading,
// learnt from synthetic ones, does not.
const (
	// readLines is how many of the longest lines are read each way.
	readLines = 3
	// minLineHeight is the least line height, in pixels, worth reading.
	minLineHeight = 8
	// maxLineAspect bounds the width of a line read (in line heights):
	// a stretch of a long line is enough, and reading costs its width.
	maxLineAspect = 8
	// detectSide is the longer side the detector reads the crop at: lines
	// are found at this size and cut from the full-resolution crop.
	detectSide = 640
	// textTemperature turns the difference of mean character confidence
	// between the four readings into probabilities.
	textTemperature = 0.05
	// minTextChars is the least number of characters the best reading must
	// recognise for the text to decide.
	minTextChars = 8
	// directionWeight is the weight of the direction classifier's
	// log-probability of upright text against the recogniser's confidence.
	// Chosen on synthetic crops (the 640 px validation split of scripts/
	// models.sh, never the real images): text alone is right on 88.5 % of
	// the crops with legible text at weight 0, 89.9 % at 0.25, 86.5 % at 1.
	directionWeight = 0.25
	// decisiveGap is the lead in mean character confidence of the best
	// reading over every other after which further lines are not read.
	// Chosen on 121 synthetic crops at 900 pixels (TestTextEarlyStop,
	// never the real images): reading every line is right on 88, and so
	// are gaps 0.25 and 0.15, for a third less time; 0.1 is right on 87
	// and 0.05 on 85.
	decisiveGap = 0.15
	// mixedShare is how much text, by the area of its lines, must run the
	// lesser way (across or down the crop) against the greater for both
	// ways to be read.
	mixedShare = 0.5
)

// textReading is the orientation read from text lines.
type textReading struct {
	// P is the probability of each rotation code 0..7.
	P []float64
	// Chars is the number of characters the best reading recognised.
	Chars int
}

// candidates are the codes tried on flat lines: as they lie, half a turn,
// mirrored, mirrored and half a turn.
var candidates = [...]geom.Rotation{0, 2, 4, 6}

// detectOptions are the text-detection options the orientation reading
// uses first (see DetectLines).
func detectOptions() ppocr.DetectOptions { return ppocr.DetectOptions{MaxSide: detectSide} }

// The finer detections of DetectLines. A crop whose longer side is at
// least largeSide pixels is detected at fineSide from the start: shrunk to
// detectSide, the lines of a page scanned at 300 dpi (an A4 certificate
// 3,500 pixels tall) come to 5 pixels, neighbours merge into one box of two
// lines, and Tesseract reads such a box as gibberish; at fineSide they
// stay apart and read nearly word for word. A crop of at least fineSide
// pixels on which fewer than fewLines lines were found at detectSide is
// detected again at fineSide: on a passport spread photographed 2,048
// pixels tall, its small captions shrink at 640 pixels to strokes the
// detector no longer takes for text (3 lines found, 26 at 960).
const (
	fineSide  = 960
	largeSide = 1440
	fewLines  = 8
)

// DetectLines detects the text lines of img the way the orientation
// reading and the classifier's evidence want them: at detectSide, or
// finer where img is large (see largeSide and fewLines; of two findings
// the denser is kept). A caller that detects the crop's lines for its own
// purpose hands the boxes to ProbabilitiesDetected instead of detecting
// twice.
func DetectLines(ctx context.Context, e *ppocr.Engine, img image.Image) ([]ppocr.Box, error) {
	m := ppocr.NewImage(img)
	b := img.Bounds()
	long := max(b.Dx(), b.Dy())
	if long >= largeSide {
		return e.Detect(ctx, m, ppocr.DetectOptions{MaxSide: fineSide})
	}
	boxes, err := e.Detect(ctx, m, detectOptions())
	if err != nil || len(boxes) >= fewLines || long < fineSide {
		return boxes, err
	}
	fine, err := e.Detect(ctx, m, ppocr.DetectOptions{MaxSide: fineSide})
	if err != nil {
		return nil, err
	}
	if len(fine) > len(boxes) {
		return fine, nil
	}
	return boxes, nil
}

// DetectRects is DetectLines with the lines' rectangles in img's
// coordinates, origin at 0,0.
func DetectRects(ctx context.Context, e *ppocr.Engine, img image.Image) ([]image.Rectangle, error) {
	boxes, err := DetectLines(ctx, e, img)
	if err != nil {
		return nil, err
	}
	rects := make([]image.Rectangle, len(boxes))
	for i, bx := range boxes {
		rects[i] = bx.Rect.Sub(img.Bounds().Min)
	}
	return rects, nil
}

// TurnedLines returns a crop turned by r (a quarter turn) and its text
// lines in the turned crop's coordinates (origin at 0,0), detected as
// DetectRects detects them: a caller that needs the turned crop's lines
// too hands the orienter its own, and they are detected once (see
// Orienter.ProbabilitiesShared).
type TurnedLines func(ctx context.Context, r geom.Rotation) (image.Image, []image.Rectangle, error)

// detectTurned is the TurnedLines of img that detects the lines afresh.
func detectTurned(e *ppocr.Engine, img image.Image) TurnedLines {
	return func(ctx context.Context, r geom.Rotation) (image.Image, []image.Rectangle, error) {
		turned, err := cvimg.Turn(img, r)
		if err != nil {
			return nil, nil, err
		}
		rects, err := DetectRects(ctx, e, turned)
		return turned, rects, err
	}
}

// linesTurned returns the flat lines of the crop turned by r, detected
// again on the turned crop (see flatLines).
func linesTurned(ctx context.Context, turnedLines TurnedLines, r geom.Rotation) ([]image.Image, error) {
	turned, rects, err := turnedLines(ctx, r)
	if err != nil {
		return nil, err
	}
	return flatLines(turned, 0, rects)
}

// readText reads the orientation of img from its text lines, boxes being
// the lines detected on img with DetectLines; ok is false when the crop
// has too little text to tell. Lines are read the way most of the text
// runs (across or down the crop, by the lines' area), and the other way
// too when the text running that way has at least mixed times the area.
func readText(ctx context.Context, e *ppocr.Engine, img image.Image, boxes []ppocr.Box, gap, mixed float64) (textReading, bool, error) {
	return readTextShared(ctx, e, img, boxes, gap, mixed, detectTurned(e, img))
}

// readTextShared is readText with the lines of the crop turned a quarter
// from turned.
func readTextShared(ctx context.Context, e *ppocr.Engine, img image.Image, boxes []ppocr.Box, gap, mixed float64,
	turned TurnedLines) (textReading, bool, error) {
	b := img.Bounds()
	rects := make([]image.Rectangle, 0, len(boxes))
	for _, bx := range boxes {
		rects = append(rects, bx.Rect.Sub(b.Min))
	}
	// Do the lines run across or down the crop?
	var across, down float64
	for _, r := range rects {
		w, h := float64(r.Dx()), float64(r.Dy())
		switch {
		case w >= 2*h:
			across += w * h
		case h >= 2*w:
			down += w * h
		}
	}
	base := geom.Rotation(0)
	if down > across {
		base = 1 // a quarter turn clockwise lays vertical lines flat
	}
	lines, err := flatLines(img, base, rects)
	if err != nil {
		return textReading{}, false, err
	}
	if base == 1 && across < mixed*down {
		// The detector cuts text running down the page worse than text
		// running across it (a sideways Indian passport's lines came out
		// in pieces that read upside down): where the text plainly runs
		// down, find the lines again on the crop turned a quarter, where
		// they run across. (On a page of a line or two running both ways
		// alike, the boxes found again were specks read as a quarter turn.)
		l2, err := linesTurned(ctx, turned, 1)
		if err != nil {
			return textReading{}, false, err
		}
		if len(l2) >= min(2, len(lines)) {
			lines = l2
		}
	}
	if len(lines) < 2 {
		// The detector finds text running down the page less surely than
		// across it: look again with the crop turned the other way.
		other := 1 - base
		l2, err := linesTurned(ctx, turned, other)
		if err != nil {
			return textReading{}, false, err
		}
		if len(l2) > len(lines) {
			base, lines = other, l2
		}
	}
	tr, ok, err := readWay(ctx, e, lines, base, gap)
	if err != nil || !ok {
		return tr, ok, err
	}
	if minor, major := min(across, down), max(across, down); minor < mixed*major {
		return tr, true, nil
	}
	// Text runs both ways in earnest (a Pakistani passport's upper page is
	// printed across its data page's lines): each way reads upright in its
	// own direction, and the text cannot tell which of the two is the
	// document's. Both readings stand, weighted by their lines' area; the
	// picture chooses between them.
	other := 1 - base
	more, err := flatLines(img, other, rects)
	if err != nil {
		return textReading{}, false, err
	}
	tr2, ok2, err := readWay(ctx, e, more, other, gap)
	if err != nil || !ok2 {
		return tr, true, err
	}
	wa, wb := across, down // the lines read first run across, unless base turned them
	if base == 1 {
		wa, wb = down, across
	}
	for i := range tr.P {
		tr.P[i] = (wa*tr.P[i] + wb*tr2.P[i]) / (wa + wb)
	}
	tr.Chars = max(tr.Chars, tr2.Chars)
	return tr, true, nil
}

// readWay reads flat lines, cut from the crop turned by base, as they
// lie, turned half round, mirrored and both, and returns the probability
// of each rotation code of the crop.
func readWay(ctx context.Context, e *ppocr.Engine, lines []image.Image, base geom.Rotation, gap float64) (textReading, bool, error) {
	if len(lines) == 0 {
		return textReading{}, false, nil
	}
	var sum, score, upright [len(candidates)]float64
	var chars [len(candidates)]int
	best := 0
	for li, l := range lines {
		for ci, c := range candidates {
			turned, err := cvimg.Turn(l, c)
			if err != nil {
				return textReading{}, false, err
			}
			m := ppocr.NewImage(turned)
			rd, err := e.Recognize(ctx, m, m.Bounds(), ppocr.Charset{})
			if err != nil {
				return textReading{}, false, err
			}
			for _, ch := range rd.Chars {
				sum[ci] += ch.Prob
			}
			chars[ci] += len(rd.Chars)
			// The direction classifier tells upright from upside down
			// where the recogniser cannot: capitals such as B, C, D, E,
			// K, O and X read the same flipped top to bottom.
			u, err := e.UpsideDown(ctx, m, m.Bounds())
			if err != nil {
				return textReading{}, false, err
			}
			upright[ci] += math.Log(max(1-u, 1e-6))
		}
		for ci := range candidates {
			if chars[ci] > 0 {
				score[ci] = sum[ci] / float64(chars[ci])
			}
		}
		best = 0
		for i := range score {
			if score[i] > score[best] {
				best = i
			}
		}
		if li+1 < len(lines) && chars[best] >= minTextChars && decided(score[:], best, gap) {
			break // the lines read so far leave no doubt
		}
	}
	if chars[best] < minTextChars { // best by the recogniser: is there text at all?
		return textReading{}, false, nil
	}
	p := make([]float64, geom.NumRotations)
	logits := make([]float64, len(candidates))
	for i := range candidates {
		logits[i] = score[i]/textTemperature + directionWeight*upright[i]
	}
	for i, q := range prob.Softmax(logits) {
		p[compose(base, candidates[i])] = q
	}
	return textReading{P: p, Chars: chars[best]}, true, nil
}

// decided reports whether the best reading's mean confidence leads every
// other reading's by at least gap.
func decided(score []float64, best int, gap float64) bool {
	for i, s := range score {
		if i != best && score[best]-s < gap {
			return false
		}
	}
	return true
}

// flatLines turns img by base (0 or a quarter turn), maps the line
// rectangles found on img along, and cuts out the longest flat lines.
func flatLines(img image.Image, base geom.Rotation, rects []image.Rectangle) ([]image.Image, error) {
	if base == 0 {
		return longestLines(rects, img), nil
	}
	h := img.Bounds().Dy()
	turned, err := cvimg.Turn(img, base)
	if err != nil {
		return nil, err
	}
	moved := make([]image.Rectangle, len(rects))
	for i, r := range rects {
		moved[i] = turnRect(r, h)
	}
	return longestLines(moved, turned), nil
}

// longestLines cuts out of img the widest flat line rectangles, each at
// most maxLineAspect line heights long.
func longestLines(rects []image.Rectangle, img image.Image) []image.Image {
	var flat []image.Rectangle
	for _, r := range rects {
		if r.Dy() >= minLineHeight && r.Dx() >= 3*r.Dy() {
			flat = append(flat, r)
		}
	}
	sort.SliceStable(flat, func(i, j int) bool { return flat[i].Dx() > flat[j].Dx() })
	if len(flat) > readLines {
		flat = flat[:readLines]
	}
	b := img.Bounds()
	out := make([]image.Image, 0, len(flat))
	for _, r := range flat {
		if r.Dx() > maxLineAspect*r.Dy() {
			r.Max.X = r.Min.X + maxLineAspect*r.Dy()
		}
		r = r.Add(b.Min).Intersect(b)
		if r.Empty() {
			continue
		}
		dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		draw.Draw(dst, dst.Bounds(), img, r.Min, draw.Src)
		out = append(out, dst)
	}
	return out
}

// turnRect maps a rectangle of an image h pixels tall through a quarter
// turn clockwise: (x, y) lands at (h - y, x).
func turnRect(r image.Rectangle, h int) image.Rectangle {
	return image.Rect(h-r.Max.Y, r.Min.X, h-r.Min.Y, r.Max.X)
}

// compose returns the code equal to applying a, then b.
func compose(a, b geom.Rotation) geom.Rotation {
	probe := [...]geom.Point{{X: 0.1, Y: 0.2}, {X: 0.9, Y: 0.3}, {X: 0.4, Y: 0.8}}
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		same := true
		for _, p := range probe {
			q1, w1, h1 := a.MapPoint(p, 1, 1)
			q1, _, _ = b.MapPoint(q1, w1, h1)
			q2, _, _ := r.MapPoint(p, 1, 1)
			if math.Abs(q1.X-q2.X) > 1e-9 || math.Abs(q1.Y-q2.Y) > 1e-9 {
				same = false
				break
			}
		}
		if same {
			return r
		}
	}
	return 0 // unreachable: the eight codes form a group
}
