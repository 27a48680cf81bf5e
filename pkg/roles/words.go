package roles

import (
	"context"
	"image"
	"sort"

	xdraw "golang.org/x/image/draw"

	"docsuite/pkg/classify"
	"docsuite/pkg/geom"
	"docsuite/pkg/ocr"
)

// The printed words the classifier reads as evidence (classify.TypeWords):
// the wordLines tallest text lines of the upright crop, each read alone
// with Tesseract (Russian and English) at wordLineHeight pixels. Titles
// and captions are a document's tallest printed lines but for its values;
// reading the whole crop costs seconds on a noisy photograph.
const (
	wordLines      = 10
	wordLineHeight = 32
	// maxLineScale is the most a line is enlarged: small print blown up
	// reads no better and costs Tesseract time in proportion to width.
	maxLineScale = 2
	// wordLineAspect is the least width, in heights, of a line worth
	// reading: shorter boxes are digits, stamps and speckles.
	wordLineAspect = 1.5
	// minWordLinePx is the least height, in crop pixels, of a line worth
	// reading.
	minWordLinePx = 8
)

// The orientation check by the printed words: the text-line orienter
// reads lines with PP-OCR, whose alphabet has no Cyrillic, so on a Russian
// document docnet's layout reading often decides, and a crop turned the
// wrong way reads as gibberish. When fewer than minKnown of the words read
// at the chosen orientation are familiar (words some template prints, or
// names, towns and offices the fields hold: on a photographed page the
// captions are often too small to read and the values are all there is),
// the checkLines tallest lines are read at the three other orientations
// that keep the lines level (half a turn, mirrored, both), and the one
// reading the most familiar words is taken when it reads knownLead more
// than the chosen one.
const (
	minKnown   = 2
	knownLead  = 2
	checkLines = 6
)

// uprightWords reads the printed words of the crop turned by rot (views
// turns it and finds its lines) and returns them with the rotation
// they were read at: rot, or, when settled is false, another that reads
// more known words (see minKnown).
//
// A line is read once a rotation: when the check chooses another rotation,
// the checkLines lines it read there are the first of the wordLines read
// for the answer (both are the tallest first), and only the rest are read.
func (z *zoneReader) uprightWords(ctx context.Context, views *turnedViews, rot geom.Rotation, settled bool) (readWordsOut, geom.Rotation, error) {
	done := map[geom.Rotation][]wordLine{}
	tessLines := 0
	read := func(r geom.Rotation, n int) ([]wordLine, error) {
		v, err := views.at(ctx, r)
		if err != nil {
			return nil, err
		}
		lines := done[r]
		if n > len(lines) {
			more, err := readWords(ctx, z.tess, v.up, v.lines, len(lines), n)
			if err != nil {
				return nil, err
			}
			tessLines += len(more)
			lines = append(lines[:len(lines):len(lines)], more...)
			done[r] = lines
		}
		return lines[:min(n, len(lines))], nil
	}
	lines, err := read(rot, wordLines)
	words := flatten(lines)
	if err != nil || settled || z.words == nil || z.known(lines) >= minKnown {
		words.lines = tessLines
		return words, rot, err
	}
	// The lines are read tallest first, so the chosen orientation's
	// checkLines tallest lines are the first of those already read.
	base := z.known(lines[:min(len(lines), checkLines)])
	best, bestKnown := rot, base
	k, m := rot.Turns(), rot.Mirrored()
	for _, r := range []geom.Rotation{geom.NewRotation(k+2, m), geom.NewRotation(k, !m), geom.NewRotation(k+2, !m)} {
		other, err := read(r, checkLines)
		if err != nil {
			return readWordsOut{}, 0, err
		}
		if k := z.known(other); k > bestKnown {
			best, bestKnown = r, k
		}
	}
	if best == rot || bestKnown < base+knownLead {
		words.lines = tessLines
		return words, rot, nil
	}
	lines, err = read(best, wordLines)
	words = flatten(lines)
	words.lines = tessLines
	return words, best, err
}

// wordLine is the words read on one text line, with Tesseract's
// confidence (0 to 1) in each.
type wordLine struct {
	words []string
	conf  []float64
}

// readWordsOut is the words read on a crop in order, with their
// confidences (classify.Evidence.WordConfidence), and how many lines
// Tesseract read for them, the orientation check's included.
type readWordsOut struct {
	words []string
	conf  []float64
	lines int
}

// known counts the familiar words of lines (classify.TypeWords.Familiar).
func (z *zoneReader) known(lines []wordLine) int {
	n := 0
	for _, l := range lines {
		for _, w := range l.words {
			if z.words.Familiar(w) {
				n++
			}
		}
	}
	return n
}

// flatten joins the words of lines, and their confidences, in order.
func flatten(lines []wordLine) readWordsOut {
	var out readWordsOut
	for _, l := range lines {
		out.words = append(out.words, l.words...)
		out.conf = append(out.conf, l.conf...)
	}
	return out
}

// readWords reads the words of the tallest text lines of up, the crop
// turned upright, from the from-th tallest to the n-th (from 0), one
// wordLine per line, tallest first (empty for a line outside the crop);
// rects are its detected lines in up's coordinates (origin at 0,0). Words
// are the runs of letters of Tesseract's words (classify.SplitWords), each
// with its Tesseract word's confidence.
func readWords(ctx context.Context, eng *ocr.Engine, up image.Image, rects []image.Rectangle, from, n int) ([]wordLine, error) {
	lines := wordLineRects(rects)
	lines = lines[min(len(lines), from):min(len(lines), n)]
	words := make([]wordLine, len(lines))
	ob := up.Bounds()
	for i, r := range lines {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pad := r.Dy() / 5
		box := image.Rect(r.Min.X-pad, r.Min.Y-pad, r.Max.X+pad, r.Max.Y+pad).Add(ob.Min).Intersect(ob)
		if box.Empty() {
			continue
		}
		_, read, err := eng.ReadField(ctx, scaleLine(up, box), ocr.FieldOptions{NoInvert: true})
		if err != nil {
			return nil, err
		}
		for _, l := range read {
			for _, w := range l.Words {
				for _, part := range classify.SplitWords(w.Text) {
					words[i].words = append(words[i].words, part)
					words[i].conf = append(words[i].conf, w.Confidence)
				}
			}
		}
	}
	return words, nil
}

// wordLineRects returns the lines of rects worth reading (minWordLinePx,
// wordLineAspect), tallest first.
func wordLineRects(rects []image.Rectangle) []image.Rectangle {
	var lines []image.Rectangle
	for _, r := range rects {
		if r.Dy() >= minWordLinePx && float64(r.Dx()) >= wordLineAspect*float64(r.Dy()) {
			lines = append(lines, r)
		}
	}
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].Dy() > lines[b].Dy() })
	return lines
}

// scaleLine returns the region box of img scaled to wordLineHeight pixels
// tall, or enlarged maxLineScale times when that is less (text lines are
// read best at a fixed height).
func scaleLine(img image.Image, box image.Rectangle) image.Image {
	f := min(maxLineScale, float64(wordLineHeight+2*wordLineHeight/5)/float64(box.Dy()))
	w := max(1, int(float64(box.Dx())*f+0.5))
	h := max(1, int(float64(box.Dy())*f+0.5))
	dst := image.NewGray(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, box, xdraw.Src, nil)
	return dst
}
