package geom

import "fmt"

// Rotation is the API's orientation code, 0..7 = k + 4*m. To make the
// upright document from the document as it lies in the input, first mirror
// it left-right when m = 1, then turn it k times by 90 degrees clockwise.
type Rotation int

// NumRotations is the number of distinct orientation codes.
const NumRotations = 8

// NewRotation builds a code from quarter turns k (any integer, taken mod 4)
// and a mirror flag.
func NewRotation(k int, mirror bool) Rotation {
	k = ((k % 4) + 4) % 4
	if mirror {
		return Rotation(k + 4)
	}
	return Rotation(k)
}

// Turns is the number of clockwise quarter turns applied after mirroring.
func (r Rotation) Turns() int { return int(r) % 4 }

// Mirrored reports whether a left-right mirror is applied first.
func (r Rotation) Mirrored() bool { return int(r) >= 4 }

// Valid reports whether r is one of the eight codes.
func (r Rotation) Valid() bool { return r >= 0 && r < NumRotations }

// String renders the code for logs, e.g. "mirror+90cw".
func (r Rotation) String() string {
	s := fmt.Sprintf("%dcw", 90*r.Turns())
	if r.Mirrored() {
		return "mirror+" + s
	}
	return s
}

// Inverse returns the code that undoes r: applying r and then Inverse(r)
// leaves an image as it was.
func (r Rotation) Inverse() Rotation {
	if r.Mirrored() {
		// mirror then k turns; undo: k' turns back then mirror, which equals
		// mirror then k turns (mirror conjugates a turn into its opposite).
		return r
	}
	return NewRotation(-r.Turns(), false)
}

// Flipped returns the code whose upright image is r's mirrored left to
// right: the same text lines with the same side up, read backwards. Text
// of letters that look the same mirrored (A, H, I, M, O, T, U, V, W, X,
// Y, a zone's fillers) tells r from Flipped(r) least.
func (r Rotation) Flipped() Rotation {
	// Mirroring after k turns is mirroring first and turning -k.
	return NewRotation(-r.Turns(), !r.Mirrored())
}

// MapPoint maps a point of a w x h image through r: it returns where the
// point lands in the transformed image, and the transformed image's size.
func (r Rotation) MapPoint(p Point, w, h float64) (Point, float64, float64) {
	if r.Mirrored() {
		p = Point{X: w - p.X, Y: p.Y}
	}
	for i := 0; i < r.Turns(); i++ {
		// 90 degrees clockwise: (x, y) in w x h -> (h - y, x) in h x w.
		p = Point{X: h - p.Y, Y: p.X}
		w, h = h, w
	}
	return p, w, h
}

// UprightOrder reorders the corners of a quad given in the order they have
// in the lying (unturned) crop, TL/TR/BL/BR of the crop as cut, into the
// corners of the upright document. Corner i of the crop maps onto the
// corner of the upright image where it lands after applying r.
func (r Rotation) UprightOrder(q Quad) Quad {
	// Unit square corners of the crop in TL, TR, BL, BR order.
	unit := [4]Point{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
	var out Quad
	for i, c := range unit {
		m, _, _ := r.MapPoint(c, 1, 1)
		out[cornerIndex(m)] = q[i]
	}
	return out
}

func cornerIndex(p Point) int {
	switch {
	case p.X < 0.5 && p.Y < 0.5:
		return TL
	case p.X >= 0.5 && p.Y < 0.5:
		return TR
	case p.X < 0.5:
		return BL
	default:
		return BR
	}
}
