package ppocr

import (
	"context"
	"fmt"
	"image"
	"math"
)

// RecHeight is the recognizer's input height.
const RecHeight = 48

// maxRecWidth bounds the recognizer's input width (a 44-character MRZ
// line is about 1,100 pixels wide at this height).
const maxRecWidth = 2400

var (
	recMean = [3]float32{0.5, 0.5, 0.5}
	recStd  = [3]float32{0.5, 0.5, 0.5}
)

// Charset limits recognition to some characters; build it with
// Engine.Charset. The zero value allows every character.
type Charset struct {
	classes []int // allowed classes, blank (0) first; nil: all
}

// Charset returns the character set of the recognizer's characters for
// which allow is true.
func (e *Engine) Charset(allow func(rune) bool) Charset {
	cs := Charset{classes: []int{0}}
	for i, r := range e.chars {
		if allow(r) {
			cs.classes = append(cs.classes, i+1)
		}
	}
	return cs
}

// Char is one recognised character: its rune, the probability of its
// step and its horizontal centre in the input image's coordinates.
type Char struct {
	Rune rune
	Prob float64
	X    float64
}

// Line is a recognised text line.
type Line struct {
	Text  string
	Chars []Char
	// Confidence is the mean probability of the characters (0 for an
	// empty line).
	Confidence float64
	// Rect is the region that was read.
	Rect image.Rectangle
}

// Recognize reads the single text line in region r (source coordinates)
// of m, choosing at each step only among cs's characters.
func (e *Engine) Recognize(ctx context.Context, m *Image, r image.Rectangle, cs Charset) (Line, error) {
	r = r.Intersect(m.Bounds()).Sub(m.origin)
	line := Line{Rect: r.Add(m.origin)}
	if r.Dx() < 2 || r.Dy() < 2 {
		return line, nil
	}
	w := int(math.Ceil(float64(RecHeight) * float64(r.Dx()) / float64(r.Dy())))
	w = min(max(w, 16), maxRecWidth)
	x := m.tensor(r, w, RecHeight, recMean, recStd)
	out, shape, err := e.rec.Run(ctx, x, 1, 3, RecHeight, int64(w))
	if err != nil {
		return line, fmt.Errorf("ppocr: recognize: %w", err)
	}
	if len(shape) != 3 || int(shape[2]) != len(e.chars)+1 {
		return line, fmt.Errorf("ppocr: recognize: output shape %v, want [1 T %d]", shape, len(e.chars)+1)
	}
	steps, classes := int(shape[1]), int(shape[2])
	prev := 0
	sum := 0.0
	runes := make([]rune, 0, steps)
	for t := 0; t < steps; t++ {
		row := out[t*classes : (t+1)*classes]
		best, bp := 0, float32(-1)
		if cs.classes == nil {
			for k, p := range row {
				if p > bp {
					best, bp = k, p
				}
			}
		} else {
			for _, k := range cs.classes {
				if row[k] > bp {
					best, bp = k, row[k]
				}
			}
		}
		if best != 0 && best != prev {
			c := Char{Rune: e.chars[best-1], Prob: float64(bp),
				X: float64(line.Rect.Min.X) + (float64(t)+0.5)*float64(r.Dx())/float64(steps)}
			line.Chars = append(line.Chars, c)
			runes = append(runes, c.Rune)
			sum += c.Prob
		}
		prev = best
	}
	line.Text = string(runes)
	if len(line.Chars) > 0 {
		line.Confidence = sum / float64(len(line.Chars))
	}
	return line, nil
}

// ReadAll detects the text lines of img and reads each with cs.
func (e *Engine) ReadAll(ctx context.Context, m *Image, opt DetectOptions, cs Charset) ([]Line, error) {
	boxes, err := e.Detect(ctx, m, opt)
	if err != nil {
		return nil, err
	}
	lines := make([]Line, 0, len(boxes))
	for _, b := range boxes {
		l, err := e.Recognize(ctx, m, b.Rect, cs)
		if err != nil {
			return nil, err
		}
		lines = append(lines, l)
	}
	return lines, nil
}
