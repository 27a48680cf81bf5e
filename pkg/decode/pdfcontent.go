package decode

import (
	"math"
	"strconv"
)

// pdfOperand is one operand of a content stream operator: a number, a
// name, or anything else (a string, an array, a dictionary).
type pdfOperand struct {
	num   float64
	isNum bool
	name  string
}

// pdfState is the part of the graphics state that decides how an image
// painted under it shows: the transformation (a b c d e f), the clip as a
// rectangle in default user space (x0 y0 x1 y1; known false once a clip
// of any other shape is set), and whether the graphics state parameters
// set are all plain.
type pdfState struct {
	ctm   [6]float64
	clip  [4]float64
	known bool
	plain bool
}

// pdfPaints are the operators that paint a path (filled, stroked or
// both) or a shading; Do (an external object) and BI (an inline image)
// paint too.
var pdfPaints = map[string]bool{"S": true, "s": true, "f": true, "F": true, "f*": true, "B": true, "B*": true,
	"b": true, "b*": true, "sh": true}

// pdfStateOps are the operators that set state or show text without
// bearing on the image: colours, line styles, marked content, text (the
// text layer is auto_pdf_raw_images' business).
var pdfStateOps = map[string]bool{"w": true, "J": true, "j": true, "M": true, "d": true, "ri": true, "i": true,
	"CS": true, "cs": true, "SC": true, "SCN": true, "sc": true, "scn": true, "G": true, "g": true, "RG": true,
	"rg": true, "K": true, "k": true, "BT": true, "ET": true, "Tc": true, "Tw": true, "Tz": true, "TL": true,
	"Tf": true, "Ts": true, "Td": true, "TD": true, "Tm": true, "T*": true, "Tj": true, "TJ": true, "'": true,
	"\"": true, "BMC": true, "BDC": true, "EMC": true, "MP": true, "DP": true, "BX": true, "EX": true,
	"d0": true, "d1": true}

// pdfContentShows reads a page's content stream and reports whether it
// paints the image named image once, upright (scaled, neither flipped nor
// turned), inside its clip and the crop box (within 1% of the box's
// sides), under plain graphics state parameters (gs tells of a name), and
// paints nothing after it. m is the transformation the image is painted
// with, zero when it is not painted.
func pdfContentShows(content []byte, image string, gs func(string) bool, crop [4]float64) (m [6]float64, ok bool) {
	inf := math.Inf(1)
	st := pdfState{ctm: [6]float64{1, 0, 0, 1, 0, 0}, clip: [4]float64{-inf, -inf, inf, inf}, known: true, plain: true}
	var stack []pdfState
	var path [][4]float64 // the current path's rectangles
	shaped, clipping, drawn := false, false, false
	lx := pdfLexer{b: content}
	for {
		op, ops, more := lx.next()
		if !more {
			return m, drawn && !lx.bad
		}
		nums, allNum := operandNumbers(ops)
		switch {
		case op == "q":
			stack = append(stack, st)
		case op == "Q":
			if len(stack) == 0 {
				return m, false
			}
			st, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case op == "cm":
			if len(nums) != 6 || !allNum {
				return m, false
			}
			st.ctm = multiply([6]float64(nums), st.ctm)
		case op == "gs":
			if len(ops) != 1 || !gs(ops[0].name) {
				st.plain = false
			}
		case op == "Tr":
			if len(nums) != 1 || !allNum || nums[0] >= 4 { // text that clips
				st.known = false
			}
		case op == "re":
			if len(nums) != 4 || !allNum {
				return m, false
			}
			r, axes := transformRect(st.ctm, nums)
			shaped = shaped || !axes
			path = append(path, r)
		case op == "W" || op == "W*":
			clipping = true
		case op == "n" || pdfPaints[op]:
			if drawn && op != "n" {
				return m, false // painted over the image
			}
			if clipping {
				if shaped || len(path) != 1 {
					st.known = false
				} else {
					st.clip = intersect(st.clip, path[0])
				}
			}
			path, shaped, clipping = path[:0], false, false
		case op == "Do":
			if drawn || len(ops) != 1 || ops[0].name != image {
				return m, false
			}
			drawn, m = true, st.ctm
			if !st.plain || !st.known || !upright(m) {
				return m, false
			}
			r := [4]float64{m[4], m[5], m[4] + m[0], m[5] + m[3]}
			tx, ty := max(0.01*(crop[2]-crop[0]), 0.5), max(0.01*(crop[3]-crop[1]), 0.5)
			if !inside(r, crop, tx, ty) || !inside(r, st.clip, tx, ty) {
				return m, false
			}
		case op == "m" || op == "l" || op == "c" || op == "v" || op == "y" || op == "h":
			shaped = true
		case pdfStateOps[op]:
		default: // an inline image, an operator of no known meaning
			return m, false
		}
	}
}

// operandNumbers returns the operands' numbers and whether all of them
// are numbers.
func operandNumbers(ops []pdfOperand) ([]float64, bool) {
	nums := make([]float64, 0, len(ops))
	for _, o := range ops {
		if !o.isNum {
			return nums, false
		}
		nums = append(nums, o.num)
	}
	return nums, true
}

// multiply returns the transformation m applied before t.
func multiply(m, t [6]float64) [6]float64 {
	return [6]float64{
		m[0]*t[0] + m[1]*t[2], m[0]*t[1] + m[1]*t[3],
		m[2]*t[0] + m[3]*t[2], m[2]*t[1] + m[3]*t[3],
		m[4]*t[0] + m[5]*t[2] + t[4], m[4]*t[1] + m[5]*t[3] + t[5],
	}
}

// upright reports whether m scales without flipping or turning.
func upright(m [6]float64) bool {
	s := max(math.Abs(m[0]), math.Abs(m[3]))
	return m[0] > 0 && m[3] > 0 && math.Abs(m[1]) <= 1e-6*s && math.Abs(m[2]) <= 1e-6*s
}

// transformRect maps the rectangle x y w h through m; axes is false when
// its image is not a rectangle along the axes.
func transformRect(m [6]float64, r []float64) ([4]float64, bool) {
	xs, ys := []float64{}, []float64{}
	for _, p := range [][2]float64{{r[0], r[1]}, {r[0] + r[2], r[1] + r[3]}} {
		xs = append(xs, m[0]*p[0]+m[2]*p[1]+m[4])
		ys = append(ys, m[1]*p[0]+m[3]*p[1]+m[5])
	}
	axes := (m[1] == 0 && m[2] == 0) || (m[0] == 0 && m[3] == 0)
	return [4]float64{min(xs[0], xs[1]), min(ys[0], ys[1]), max(xs[0], xs[1]), max(ys[0], ys[1])}, axes
}

// intersect is the rectangles' common part.
func intersect(a, b [4]float64) [4]float64 {
	return [4]float64{max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])}
}

// inside reports whether r lies in box, give or take tx and ty.
func inside(r, box [4]float64, tx, ty float64) bool {
	return r[0] >= box[0]-tx && r[1] >= box[1]-ty && r[2] <= box[2]+tx && r[3] <= box[3]+ty
}

// pdfLexer splits a content stream into operators and their operands.
type pdfLexer struct {
	b   []byte
	at  int
	bad bool // the stream ended inside a string, array or dictionary
}

// pdfDelimiter reports the bytes that end a name, number or operator.
func pdfDelimiter(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%', ' ', '\t', '\n', '\r', '\f', 0:
		return true
	}
	return false
}

// next returns the next operator and the operands before it; more is
// false at the end of the stream. Operands inside arrays and dictionaries
// count as one operand of no number or name.
func (lx *pdfLexer) next() (op string, ops []pdfOperand, more bool) {
	depth := 0
	for lx.at < len(lx.b) {
		c := lx.b[lx.at]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0:
			lx.at++
			continue
		case c == '%':
			for lx.at < len(lx.b) && lx.b[lx.at] != '\n' && lx.b[lx.at] != '\r' {
				lx.at++
			}
			continue
		case c == '(':
			lx.skipString()
		case c == '<' && lx.at+1 < len(lx.b) && lx.b[lx.at+1] == '<':
			lx.at += 2
			depth++
			continue
		case c == '>' && lx.at+1 < len(lx.b) && lx.b[lx.at+1] == '>':
			lx.at += 2
			depth--
		case c == '<':
			for lx.at < len(lx.b) && lx.b[lx.at] != '>' {
				lx.at++
			}
			lx.at++
		case c == '[':
			lx.at++
			depth++
			continue
		case c == ']':
			lx.at++
			depth--
		case c == '/':
			start := lx.at
			lx.at++
			for lx.at < len(lx.b) && !pdfDelimiter(lx.b[lx.at]) {
				lx.at++
			}
			if depth == 0 {
				ops = append(ops, pdfOperand{name: string(lx.b[start:lx.at])})
			}
			continue
		case pdfDelimiter(c): // ) } { out of place
			lx.bad = true
			return "", nil, false
		default:
			start := lx.at
			for lx.at < len(lx.b) && !pdfDelimiter(lx.b[lx.at]) {
				lx.at++
			}
			word := string(lx.b[start:lx.at])
			f, err := strconv.ParseFloat(word, 64)
			switch {
			case depth > 0:
			case err == nil:
				ops = append(ops, pdfOperand{num: f, isNum: true})
			case word == "true" || word == "false" || word == "null":
				ops = append(ops, pdfOperand{})
			default:
				return word, ops, true
			}
			continue
		}
		// A string, array or dictionary ended here.
		if depth < 0 {
			lx.bad = true
			return "", nil, false
		}
		if depth == 0 {
			ops = append(ops, pdfOperand{})
		}
	}
	lx.bad = lx.bad || depth != 0 || len(ops) > 0
	return "", nil, false
}

// skipString moves past a literal string: balanced parentheses, a
// backslash escaping the next byte.
func (lx *pdfLexer) skipString() {
	n := 0
	for ; lx.at < len(lx.b); lx.at++ {
		switch lx.b[lx.at] {
		case '\\':
			lx.at++
		case '(':
			n++
		case ')':
			if n--; n == 0 {
				lx.at++
				return
			}
		}
	}
	lx.bad = true
}
