package roles

import (
	"math"
	"sort"

	"docsuite/pkg/ppocr"
)

// cropSlant is the median slant of a crop's long text lines lying within
// levelMaxDeg degrees of level (lines running down a page, as on a
// passport's upper page printed across its data page, are no slant), and
// whether it is worth levelling: at least levelMinLines such lines of
// elongation 8 or more, their median by length slanted levelMinDeg
// degrees or more.
func cropSlant(boxes []ppocr.Box) (float64, bool) {
	var ls []ppocr.Box
	total := 0
	for _, bx := range boxes {
		if bx.Elongation >= 8 && math.Abs(bx.Angle)*180/math.Pi <= levelMaxDeg {
			ls = append(ls, bx)
			total += bx.Rect.Dx()
		}
	}
	if len(ls) < levelMinLines {
		return 0, false
	}
	// The median by length: a short line's slant, measured on a few
	// words with their ascenders, is a rough one.
	sort.Slice(ls, func(i, j int) bool { return ls[i].Angle < ls[j].Angle })
	a, run := 0.0, 0
	for _, bx := range ls {
		if run += bx.Rect.Dx(); 2*run >= total {
			a = bx.Angle
			break
		}
	}
	return a, math.Abs(a)*180/math.Pi >= levelMinDeg
}

const (
	levelMinLines = 3
	levelMinDeg   = 2.0
	levelMaxDeg   = 20.0
)
