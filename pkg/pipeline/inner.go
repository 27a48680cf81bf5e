package pipeline

import (
	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// innerShare is the share of its own area a piece answered no catalogue
// type must have inside a catalogue document of its page to be taken for
// a part of it (dropInner).
const innerShare = 0.9

// dropInner removes the pieces answered no catalogue type (other,
// not_document, empty) that lie within a document of a catalogue type on
// the same page: at least innerShare of the piece's area inside that
// document's coords. They are parts of it the cropper cut as documents of
// their own: the title band across the top of a Japanese licence, cut out
// of the licence mirrored and saved as a JPEG, answered other 0.99 beside
// the licence itself. A document outside the catalogue lying beside a
// catalogue one, or over its edge, stays; one lying wholly on it is lost
// (of the 47 outside the catalogue in 1,000 factory scenes, none lay so).
func dropInner(items []Item) []Item {
	var hosts []Item
	for _, it := range items {
		if !doctypes.IsSpecial(it.Document.Type) {
			hosts = append(hosts, it)
		}
	}
	if len(hosts) == 0 {
		return items
	}
	kept := items[:0:0]
	for _, it := range items {
		if !doctypes.IsSpecial(it.Document.Type) || !inside(it, hosts) {
			kept = append(kept, it)
		}
	}
	return kept
}

// inside reports whether at least innerShare of piece's area lies within
// one of hosts on its page.
func inside(piece Item, hosts []Item) bool {
	q, ok := quadOf(piece.Document.Coords)
	if !ok || q.Area() <= 0 {
		return false
	}
	for _, h := range hosts {
		if h.Document.Page != piece.Document.Page {
			continue
		}
		if hq, ok := quadOf(h.Document.Coords); ok && geom.Overlap(q, hq) >= innerShare*q.Area() {
			return true
		}
	}
	return false
}

// quadOf is a document's coords (four corners in the API's order, the
// upright document's, so turned or mirrored on the page: they still go
// round the quadrilateral in geom.Quad's ring order) as a quad; false when
// they are not four.
func quadOf(c [][2]int) (geom.Quad, bool) {
	var q geom.Quad
	if len(c) != 4 {
		return q, false
	}
	for i, p := range c {
		q[i] = geom.Point{X: float64(p[0]), Y: float64(p[1])}
	}
	return q, true
}
