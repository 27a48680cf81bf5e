package mrz

import (
	"image"
	"sort"

	"docsuite/pkg/ppocr"
)

// The geometry of text rows: which detected rows may be a zone's lines.

// endsRun reports whether the last of rows can end a zone: whether the
// rows above it stack with it like the lines of some layout. A row that
// ends none is not read (on a form without a zone, each row read costs
// 0.1 to 0.2 s).
func endsRun(rows []image.Rectangle) bool {
	for _, f := range []Format{TD3, TD2, TD1} {
		n, _ := f.Shape()
		if len(rows) >= n && stacked(rows[len(rows)-n:]) {
			return true
		}
	}
	return false
}

// mergeRows joins boxes that lie on one text row, whatever the gap
// between them: the detector often leaves out a zone line's runs of
// fillers and splits the line there.
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
			if ov*10 >= h*7 && abs(cur.Dy()-o.Dy())*3 <= h {
				cur = cur.Union(o)
				used[j] = true
			}
		}
		out = append(out, cur)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Min.Y < out[j].Min.Y })
	return out
}

// zoneRows returns the rows that may be zone lines: long thin rows that
// span much of the document's width, and the rows just above or below
// them starting at the same left edge (a line the detector found only in
// part). Rows stacked like that are stretched to their common width, so
// that each is read whole; found are the rows as detected.
func zoneRows(rows []image.Rectangle, b image.Rectangle) (cand, found []image.Rectangle) {
	wide := func(r image.Rectangle) bool { return r.Dx() >= 10*r.Dy() && r.Dx()*10 >= b.Dx()*3 }
	for i, r := range rows {
		keep := wide(r)
		for _, j := range []int{i - 1, i + 1} {
			if keep || j < 0 || j >= len(rows) || !wide(rows[j]) {
				continue
			}
			pair := []image.Rectangle{rows[min(i, j)], rows[max(i, j)]}
			keep = stacked(pair)
		}
		if keep {
			cand = append(cand, r)
		}
	}
	found = append([]image.Rectangle(nil), cand...)
	for i := 1; i < len(cand); i++ {
		if stacked(cand[i-1 : i+1]) {
			x0 := min(cand[i-1].Min.X, cand[i].Min.X)
			x1 := max(cand[i-1].Max.X, cand[i].Max.X)
			cand[i-1].Min.X, cand[i-1].Max.X = x0, x1
			cand[i].Min.X, cand[i].Max.X = x0, x1
		}
	}
	return cand, found
}

// stacked reports whether rects lie like the lines of one zone: one
// under the next at about one line's height, starting at the same left
// edge. Widths may differ: the detector often misses a line's fillers.
func stacked(rs []image.Rectangle) bool {
	for i := 1; i < len(rs); i++ {
		a, b := rs[i-1], rs[i]
		h := max(a.Dy(), b.Dy())
		gap := (b.Min.Y + b.Max.Y - a.Min.Y - a.Max.Y) / 2 // centre to centre
		if gap <= 0 || gap > 2*h || abs(a.Min.X-b.Min.X) > 2*h {
			return false
		}
	}
	return true
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
