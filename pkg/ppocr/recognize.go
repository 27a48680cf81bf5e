package ppocr

import (
	"context"
	"image"
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
	sp, err := e.RecognizeSteps(ctx, m, r, cs, 0)
	if err != nil {
		return Line{Rect: r.Intersect(m.Bounds())}, err
	}
	return sp.Greedy(), nil
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
