package extract

import (
	"context"
	"fmt"
	"image"
	"sort"
	"strings"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/ocr"
)

// maxRereads bounds the words of one region read a second time.
const maxRereads = 4

// rereadDoubtful reads again, each alone as one line, the words of a
// region that Tesseract was unsure of but that stand as tall as the
// value's words (the confident words', or all words' when none is):
// read in a block, a word on a line of its own (the last word of an
// authority, wrapped), one the caption above touches (the first) or the
// sign № often comes back right with a confidence near zero, and so does
// a name whose capitals all have small forms of the same shape (ВОЛКОВ);
// the caption filter would drop them. A word read alone the same as
// before takes the confidence of its second reading (it is kept when
// that passes minConf); its text, place and box stay. Words no Russian
// text holds (a letter three times in a row: the noise of a pattern read
// as letters) are not read again. Lines are changed in place;
// coordinates are sub's, relative to its bounds.
func (x *Extractor) rereadDoubtful(ctx context.Context, sub image.Image, lines []ocr.Line, v visual, minHeight, minConf float64) error {
	height := func(w ocr.Word) int { return w.Coords[3][1] - w.Coords[0][1] }
	var hs []int
	for _, l := range lines {
		for _, w := range l.Words {
			if w.Confidence >= minConf {
				hs = append(hs, height(w))
			}
		}
	}
	if len(hs) == 0 {
		// No word read with confidence (a one-word name): the words'
		// median height stands for the value's.
		for _, l := range lines {
			for _, w := range l.Words {
				hs = append(hs, height(w))
			}
		}
	}
	if len(hs) == 0 {
		return nil
	}
	sort.Ints(hs)
	ref := hs[len(hs)/2]
	b := sub.Bounds()
	n := 0
	for li := range lines {
		l := &lines[li]
		top, bottom := lineBand(l.Words, minConf)
		for wi := range l.Words {
			w := &l.Words[wi]
			if w.Confidence >= minConf || float64(height(*w)) < minHeight*float64(ref) || (len([]rune(w.Text)) < 2 && w.Text != "№") || tripled(w.Text) {
				continue
			}
			if n == maxRereads {
				return nil
			}
			n++
			y0, y1 := w.Coords[0][1], w.Coords[3][1]
			if top < bottom {
				// The line's confident words give its band: a word the
				// caption above touched is cut to it.
				y0, y1 = top, bottom
			}
			pad := ref / 3
			r := image.Rect(w.Coords[0][0]-ref/2, y0-pad, w.Coords[3][0]+ref/2, y1+pad).Add(b.Min).Intersect(b)
			if r.Dx() < 4 || r.Dy() < 4 {
				continue
			}
			wl := v.whitelist
			if !strings.ContainsAny(w.Text, "0123456789№") {
				// A word read as letters is read again as letters of
				// either case: alone, a word of letters whose small
				// forms have the same shape (ОМСК) reads as small
				// letters, and forced to capitals it scores near zero.
				wl = cyrUpper + strings.ToLower(cyrUpper) + "-.,"
			}
			txt, got, err := x.ocr.ReadField(ctx, cvimg.Sub(sub, r), ocr.FieldOptions{Whitelist: wl})
			if err != nil {
				return fmt.Errorf("extract: read word again: %w", err)
			}
			// Kept only when read the same alone: the two readings
			// agree, and a fragment of a heading or a stamp, which
			// reads as something else each time, stays out.
			if c := meanConfidence(got); strings.EqualFold(txt, w.Text) && c >= minConf {
				w.Confidence = c
			}
		}
	}
	return nil
}

// lineBand is the top and bottom of a line's words read with at least
// minConf confidence (their medians); top >= bottom when none was.
func lineBand(ws []ocr.Word, minConf float64) (top, bottom int) {
	var ts, bs []int
	for _, w := range ws {
		if w.Confidence >= minConf {
			ts = append(ts, w.Coords[0][1])
			bs = append(bs, w.Coords[3][1])
		}
	}
	if len(ts) == 0 {
		return 0, 0
	}
	sort.Ints(ts)
	sort.Ints(bs)
	return ts[len(ts)/2], bs[len(bs)/2]
}

// meanConfidence is the mean confidence of the words of lines (0 for none).
func meanConfidence(lines []ocr.Line) float64 {
	sum, n := 0.0, 0
	for _, l := range lines {
		for _, w := range l.Words {
			sum += w.Confidence
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// tripled reports whether s holds one letter three times in a row, which
// no Russian word does.
func tripled(s string) bool {
	r := []rune(s)
	for i := 2; i < len(r); i++ {
		if r[i] == r[i-1] && r[i] == r[i-2] {
			return true
		}
	}
	return false
}

// rereadLine reads a one-line field again on the band of its words alone
// when Tesseract left doubtful words at least half the value's height on
// it: in the field's region the caption, the rules and the margin throw
// off Tesseract's line finding, and a bold face's НИКИТИН came back as
// НИК and Н, ПЕТРОВИЧ as П and ВИЧ, where the band alone reads whole.
// The second reading replaces the first when its words are surer on
// average; coordinates stay sub's (relative to its bounds).
func (x *Extractor) rereadLine(ctx context.Context, sub image.Image, lines []ocr.Line, v visual, minConf float64) ([]ocr.Line, error) {
	ref, ok := refHeight(lines, minConf)
	if !ok {
		return lines, nil
	}
	var band image.Rectangle
	doubt, sum, n := false, 0.0, 0
	for _, l := range lines {
		for _, w := range l.Words {
			if float64(wordHeight(w)) < 0.5*ref {
				continue
			}
			doubt = doubt || w.Confidence < minConf
			sum += w.Confidence
			n++
			band = band.Union(image.Rect(w.Coords[0][0], w.Coords[0][1], w.Coords[3][0], w.Coords[3][1]))
		}
	}
	if !doubt || band.Empty() {
		return lines, nil
	}
	b := sub.Bounds()
	pad := int(ref / 3)
	r := image.Rect(band.Min.X-int(ref/2), band.Min.Y-pad, band.Max.X+int(ref/2), band.Max.Y+pad).Add(b.Min).Intersect(b)
	if r.Dx() < 4 || r.Dy() < 4 {
		return lines, nil
	}
	_, got, err := x.ocr.ReadField(ctx, cvimg.Sub(sub, r), ocr.FieldOptions{Whitelist: v.whitelist})
	if err != nil {
		return nil, fmt.Errorf("extract: read line again: %w", err)
	}
	if len(got) == 0 || meanConfidence(got) <= sum/float64(n) {
		return lines, nil
	}
	d := r.Min.Sub(b.Min)
	for i := range got {
		for k := range got[i].Coords {
			got[i].Coords[k][0] += d.X
			got[i].Coords[k][1] += d.Y
		}
		for j := range got[i].Words {
			for k := range got[i].Words[j].Coords {
				got[i].Words[j].Coords[k][0] += d.X
				got[i].Words[j].Coords[k][1] += d.Y
			}
		}
	}
	return got, nil
}
