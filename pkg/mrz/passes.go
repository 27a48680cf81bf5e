package mrz

import (
	"context"
	"errors"
	"image"
	"strings"

	"docsuite/pkg/ppocr"
)

// rowReader recognises the candidate zone rows of one image, each row
// once at each stretch, so that a second reading pass reads only the rows
// the first did not.
type rowReader struct {
	r    *Reader
	m    *ppocr.Image
	cand []image.Rectangle
	// found are the rows as detected, before zoneRows stretched them,
	// and foundLike whether a narrow one's reading is zoneLike (0 not
	// read yet, 1 yes, -1 no).
	found     []image.Rectangle
	foundLike []int8
	// at holds the rows read so far at each stretch, indexed like cand.
	at map[float64][]*zoneLine
	// lastEnds, when above 0, is how many of the lowest rows a zone may
	// end at (a Reader WithZoneAtBottom: lowestRows); 0 lets it end at
	// any row.
	lastEnds int
	// screen is set when a row is read at another stretch than
	// blurStretch only if its reading at blurStretch is zoneLike, and a
	// row stretched to over twice its detected width (a page number
	// under the zone, stacked with it) only if its detected part reads
	// zoneLike; a row that is not reads as empty.
	screen bool
}

func newRowReader(r *Reader, m *ppocr.Image, boxes []ppocr.Box, screen bool) *rowReader {
	cand, found := zoneRows(mergeRows(boxes), m.Bounds())
	return &rowReader{r: r, m: m, cand: cand, found: found, foundLike: make([]int8, len(cand)), at: map[float64][]*zoneLine{}, screen: screen}
}

// line returns row i recognised at stretch.
func (rr *rowReader) line(ctx context.Context, i int, stretch float64) (zoneLine, error) {
	done := rr.at[stretch]
	if done == nil {
		done = make([]*zoneLine, len(rr.cand))
		rr.at[stretch] = done
	}
	if done[i] != nil {
		return *done[i], nil
	}
	if rr.screen && rr.found[i].Dx()*2 < rr.cand[i].Dx() {
		if rr.foundLike[i] == 0 {
			l, err := rr.r.readLine(ctx, rr.m, rr.found[i], blurStretch)
			if err != nil {
				return l, err
			}
			rr.foundLike[i] = -1
			if zoneLike(l.greedy, rr.found[i]) {
				rr.foundLike[i] = 1
			}
		}
		if rr.foundLike[i] < 0 {
			done[i] = &zoneLine{}
			return *done[i], nil
		}
	}
	if rr.screen && stretch != blurStretch {
		first, err := rr.line(ctx, i, blurStretch)
		if err != nil {
			return first, err
		}
		if !zoneLike(first.greedy, rr.cand[i]) {
			done[i] = &zoneLine{}
			return *done[i], nil
		}
	}
	l, err := rr.r.readLine(ctx, rr.m, rr.cand[i], stretch)
	if err != nil {
		return l, err
	}
	done[i] = &l
	return l, nil
}

// anyZoneLike reports whether a row read at blurStretch reads like a zone
// line.
func (rr *rowReader) anyZoneLike() bool {
	for i, l := range rr.at[blurStretch] {
		if l != nil && zoneLike(l.greedy, rr.cand[i]) {
			return true
		}
	}
	return false
}

// zoneLike reports whether l, a row's reading at its own width (rect its
// box), could be a line of a zone: it holds a filler, or at least
// minZoneLike characters, about as many as a zone line of its size
// holds, read with some certainty (minZoneLikeConf). A zone's characters are
// narrow: on the factory's scans and photos its lines read 1.6 to 3.4
// characters per height of their box at their own width, blurred ones
// included, where the printed lines of a form read with the zone's
// alphabet give at most 1.45 (Cyrillic words), and on a real 300 dpi
// scan 1.0 at most.
func zoneLike(l ppocr.Line, rect image.Rectangle) bool {
	if strings.ContainsRune(l.Text, Filler) {
		return true
	}
	return len(l.Chars) >= minZoneLike && l.Confidence >= minZoneLikeConf &&
		float64(len(l.Chars)*rect.Dy()) >= 1.2*float64(rect.Dx())
}

// lowestRows is how many of the lowest candidate rows a Reader
// WithZoneAtBottom reads before it gives up: the zone's last line and a
// line of print under it.
const lowestRows = 2

// minZoneLikeConf is the least mean character probability of a zone-like
// reading without a filler. Dense small print (a SNILS card's back, a
// form's paragraphs) read with the zone's alphabet packs as many
// characters as a zone line does, but the recogniser is unsure of them:
// 0.15 to 0.66 on the factory's SNILS back, where the lines of zones
// whose fillers blur away read 0.59 to 0.82 on its photos (seed 4242),
// and those with fillers up to 0.97.
const minZoneLikeConf = 0.55

// minZoneLike is the fewest characters of a zone-like reading without a
// filler: a line needs 15 at least to be read as a zone's (readDetected),
// and a line's reading at its own width lost at most a fifth of the
// characters read at twice it on the factory's photos, fillers aside. (A
// page number under the zone, "23" in a box of 29x21 pixels, is dense.)
const minZoneLike = 8

// readRows reads the zone from the rows detected on m. A Reader
// WithSecondReading reads them at their own width first, cheaply, but
// for the name line, which no check digit covers and which is read at
// twice the width (at its own width a name was read with a letter too
// many, 7ODIN for 7DIN, on a zone that verified); when that does not
// verify, it reads at twice the width only the rows whose first reading
// is zoneLike, and keeps the reading with fewer failed check digits (at
// equal counts the wider one). On a form without a zone (a real 300 dpi
// scan) no row is read twice: 1.1 s of recognition fell to 0.5 s. Other
// Readers read at twice the width only.
func (r *Reader) readRows(ctx context.Context, m *ppocr.Image, boxes []ppocr.Box) (*Reading, error) {
	if !r.again {
		return r.ReadDetected(ctx, m, boxes)
	}
	rr := newRowReader(r, m, boxes, true)
	if r.lowest {
		rr.lastEnds = lowestRows
		like := len(rr.cand) == 0
		for i := len(rr.cand) - 1; i >= max(0, len(rr.cand)-lowestRows) && !like; i-- {
			l, err := rr.line(ctx, i, blurStretch)
			if err != nil {
				return nil, err
			}
			like = zoneLike(l.greedy, rr.cand[i])
		}
		if !like {
			return nil, ErrNoZoneLines
		}
	}
	names := float64(recStretch)
	if r.noNames {
		names = blurStretch
	}
	quick, err := readDetected(ctx, rr, blurStretch, names)
	if r.noNames && err == nil && quick.Valid() && !KnownState(quick.Issuer) {
		// The issuer lies on a passport's name line: read at its own
		// width it may lose a letter (BG for BGD). Read that line at
		// twice the width, the others as they were.
		again, err := readDetected(ctx, rr, blurStretch, recStretch)
		if err == nil && again.Valid() && KnownState(again.Issuer) {
			quick = again
		}
	}
	if (err != nil && !errors.Is(err, ErrNotFound)) || (quick != nil && quick.Valid()) {
		return quick, err
	}
	if len(rr.cand) > 0 && !rr.anyZoneLike() {
		return nil, ErrNoZoneLines
	}
	rd, err := readDetected(ctx, rr, recStretch, recStretch)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if quick != nil && (rd == nil || len(quick.Failed()) < len(rd.Failed())) {
		return quick, nil
	}
	return rd, err
}
