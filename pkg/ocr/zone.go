package ocr

import (
	"context"
	"fmt"
	"image"
	"slices"
	"strings"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// ZoneReader reads the machine-readable zone of a document: Tesseract
// misreads its OCR-B letters and fillers, a reader made for it does not
// (mrz.Reader is one).
type ZoneReader interface {
	// ReadZone returns the lines of the zone of img (an upright document),
	// top to bottom, their rectangles in img's pixels and the mean
	// confidence of their characters, when it has a zone whose check
	// digits all verify; no lines otherwise.
	ReadZone(ctx context.Context, img image.Image) (lines []string, rects []image.Rectangle, confidence float64, err error)
}

// zoneLike says whether Tesseract read a line of lines as a zone's: two
// fillers in a row (read as "<<", or as a guillemet).
func zoneLike(lines []Line) bool {
	return slices.ContainsFunc(lines, func(l Line) bool {
		return strings.Contains(l.Text, "<<") || strings.ContainsRune(l.Text, '«')
	})
}

// ReadZoned is Read for a page that is one document (a scan or a
// close-up where the cropper finds none on it): its machine-readable zone
// is read by zr as ReadDocuments reads a document's (nil: as Tesseract
// reads it), the zone's lines one block.
func (e *Engine) ReadZoned(ctx context.Context, img image.Image, zr ZoneReader) (Page, error) {
	p, err := e.Read(ctx, img)
	if err != nil {
		return Page{}, err
	}
	z, read, err := withZone(ctx, zr, img, p, false)
	if err != nil || !read {
		return p, err
	}
	block, prev := 0, 0
	for i := range z.Lines {
		if i == 0 || z.Lines[i].Block != prev {
			block++
		}
		prev, z.Lines[i].Block = z.Lines[i].Block, block
	}
	z.Text = joinLines(z.Lines, false)
	return z, nil
}

// withZone replaces the lines of p, read on img turned by p.Rotation
// quarter turns, that lie on the document's zone by the zone's lines as
// zr reads them, when it reads one that verifies; the zone is looked for
// only when Tesseract read a line like a zone's (zoneLike). The zone's
// lines take the place of the first line they replace (the end of the
// document when Tesseract read none there; of a line Tesseract read
// across the zone and beside it, the words beside it stay), one word a line, each a block
// (a row) of its own when rows is set, else one block together. Their
// blocks are numbered below zero: the caller numbers the blocks again.
// read says a zone was read.
func withZone(ctx context.Context, zr ZoneReader, img image.Image, p Page, rows bool) (out Page, read bool, err error) {
	if zr == nil || !zoneLike(p.Lines) {
		return p, false, nil
	}
	rot := geom.NewRotation(p.Rotation, false)
	up := img
	if rot != 0 {
		if up, err = cvimg.Turn(img, rot); err != nil {
			return p, false, fmt.Errorf("ocr: turn document: %w", err)
		}
	}
	texts, rects, conf, err := zr.ReadZone(ctx, up)
	if err != nil || len(texts) == 0 || len(rects) != len(texts) {
		return p, false, err
	}
	// The zone's lines, and the band they fill, in img's pixels.
	ub := up.Bounds()
	back := rot.Inverse()
	uw, uh := float64(ub.Dx()), float64(ub.Dy())
	toImg := func(r image.Rectangle) [4][2]int {
		r = r.Sub(ub.Min)
		c := [4][2]int{{r.Min.X, r.Min.Y}, {r.Max.X, r.Min.Y}, {r.Min.X, r.Max.Y}, {r.Max.X, r.Max.Y}}
		c = mapCorners(c, back, uw, uh)
		for i := range c {
			c[i][0] += img.Bounds().Min.X
			c[i][1] += img.Bounds().Min.Y
		}
		return c
	}
	band := rects[0]
	for _, r := range rects[1:] {
		band = band.Union(r)
	}
	band = band.Inset(-band.Dy() / (2 * len(rects)))
	bandImg := cornersRect(toImg(band))
	lines := make([]Line, 0, len(texts))
	for i, t := range texts {
		c := toImg(rects[i])
		block := -1
		if rows {
			block = -1 - i
		}
		lines = append(lines, Line{Text: t, Confidence: conf, Coords: c, Block: block,
			Words: []Word{{Text: t, Confidence: conf, Coords: c}}})
	}
	at := -1
	kept := make([]Line, 0, len(p.Lines)+len(lines))
	for _, l := range p.Lines {
		rest, changed := outside(l, bandImg)
		if changed && at < 0 {
			at = len(kept)
		}
		if len(rest.Words) > 0 {
			kept = append(kept, rest)
		}
	}
	if at < 0 {
		at = len(kept)
	}
	p.Lines = slices.Insert(kept, at, lines...)
	return p, true, nil
}

// outside returns l without its words whose centres lie in band, and
// whether any did: Tesseract may read a line of values beside the zone
// and the zone's misread line as one line, and the values stay. The
// line's text and box are those of the words kept.
func outside(l Line, band image.Rectangle) (Line, bool) {
	var words []Word
	for _, w := range l.Words {
		if !image.Pt(centre(w.Coords)).In(band) {
			words = append(words, w)
		}
	}
	if len(words) == len(l.Words) {
		return l, false
	}
	if len(words) == 0 {
		return Line{}, true
	}
	texts := make([]string, len(words))
	sum := 0.0
	for i, w := range words {
		texts[i], sum = w.Text, sum+w.Confidence
	}
	first, last := words[0].Coords, words[len(words)-1].Coords
	l.Words, l.Text, l.Confidence = words, strings.Join(texts, " "), round3(sum/float64(len(words)))
	l.Coords = [4][2]int{first[0], last[1], first[2], last[3]}
	return l, true
}

// cornersRect is the rectangle spanned by four corners.
func cornersRect(c [4][2]int) image.Rectangle {
	r := image.Rect(c[0][0], c[0][1], c[0][0], c[0][1])
	for _, p := range c[1:] {
		r = r.Union(image.Rect(p[0], p[1], p[0]+1, p[1]+1))
	}
	return r
}

// centre is the centre of four corners.
func centre(c [4][2]int) (int, int) {
	return (c[0][0] + c[1][0] + c[2][0] + c[3][0]) / 4, (c[0][1] + c[1][1] + c[2][1] + c[3][1]) / 4
}
