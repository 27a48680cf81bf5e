package ppocr

import (
	"context"
	"fmt"
	"image"
	"math"
	"sort"
)

// Box is a detected text line: an axis-aligned rectangle in the input
// image's coordinates and the mean text probability inside it.
type Box struct {
	Rect  image.Rectangle
	Score float64
	// Angle is the slant of the line's principal axis in radians
	// (positive: falling to the right, as image y grows downwards) and
	// Elongation the ratio of its length to its thickness; a tilted line
	// has a slanted axis inside its axis-aligned Rect.
	Angle, Elongation float64
}

// DetectOptions tune detection; zero values take the PaddleOCR defaults.
type DetectOptions struct {
	// MaxSide limits the longer side of the image fed to the detector
	// (rounded to multiples of 32); default 960.
	MaxSide int
	// Upscale enlarges smaller images to MaxSide too, so that small text
	// (a machine-readable zone on a low-resolution photo) is found.
	Upscale bool
	// Threshold binarises the probability map (default 0.3); BoxScore is
	// the least mean probability of a kept box (default 0.6); Unclip
	// grows each box by area×Unclip/perimeter (default 1.5).
	Threshold, BoxScore, Unclip float64
}

func (o *DetectOptions) defaults() {
	if o.MaxSide <= 0 {
		o.MaxSide = 960
	}
	if o.Threshold <= 0 {
		o.Threshold = 0.3
	}
	if o.BoxScore <= 0 {
		o.BoxScore = 0.6
	}
	if o.Unclip <= 0 {
		o.Unclip = 1.5
	}
}

var (
	detMean = [3]float32{0.406, 0.456, 0.485} // BGR order
	detStd  = [3]float32{0.225, 0.224, 0.229}
)

// Detect finds the text lines of img, top to bottom then left to right.
// Boxes are axis-aligned, which suits upright documents.
func (e *Engine) Detect(ctx context.Context, m *Image, opt DetectOptions) ([]Box, error) {
	opt.defaults()
	if m.w < 8 || m.h < 8 {
		return nil, nil
	}
	scale := float64(opt.MaxSide) / float64(max(m.w, m.h))
	if !opt.Upscale {
		scale = math.Min(1, scale)
	}
	w := max(32, int(math.Round(float64(m.w)*scale/32))*32)
	h := max(32, int(math.Round(float64(m.h)*scale/32))*32)
	x := m.tensor(image.Rect(0, 0, m.w, m.h), w, h, detMean, detStd)
	prob, shape, err := e.det.Run(ctx, x, 1, 3, int64(h), int64(w))
	if err != nil {
		return nil, fmt.Errorf("ppocr: detect: %w", err)
	}
	if len(shape) != 4 || shape[2] != int64(h) || shape[3] != int64(w) {
		return nil, fmt.Errorf("ppocr: detect: output shape %v, want [1 1 %d %d]", shape, h, w)
	}
	fx, fy := float64(m.w)/float64(w), float64(m.h)/float64(h)
	var boxes []Box
	for _, c := range components(prob, w, h, float32(opt.Threshold)) {
		if c.score < opt.BoxScore || c.r.Dx() < 3 || c.r.Dy() < 3 {
			continue
		}
		// Unclip: DB shrinks text regions when training; grow them back.
		bw, bh := float64(c.r.Dx()), float64(c.r.Dy())
		d := bw * bh * opt.Unclip / (2 * (bw + bh))
		r := image.Rect(
			int(math.Floor((float64(c.r.Min.X)-d)*fx)), int(math.Floor((float64(c.r.Min.Y)-d)*fy)),
			int(math.Ceil((float64(c.r.Max.X)+d)*fx)), int(math.Ceil((float64(c.r.Max.Y)+d)*fy)),
		).Intersect(image.Rect(0, 0, m.w, m.h))
		if r.Empty() {
			continue
		}
		boxes = append(boxes, Box{Rect: r.Add(m.origin), Score: c.score, Angle: c.angle, Elongation: c.elong})
	}
	sort.Slice(boxes, func(i, j int) bool {
		a, b := boxes[i].Rect, boxes[j].Rect
		if a.Min.Y+a.Dy()/2 < b.Min.Y || b.Min.Y+b.Dy()/2 < a.Min.Y {
			return a.Min.Y < b.Min.Y
		}
		return a.Min.X < b.Min.X
	})
	return boxes, nil
}

type component struct {
	r            image.Rectangle
	score        float64
	angle, elong float64
}

// components labels the 4-connected regions of prob above thr and returns
// each one's bounding box and mean probability.
func components(prob []float32, w, h int, thr float32) []component {
	label := make([]int32, w*h)
	var out []component
	stack := make([]int, 0, 1024)
	for i, p := range prob[:w*h] {
		if p <= thr || label[i] != 0 {
			continue
		}
		id := int32(len(out) + 1)
		label[i] = id
		stack = append(stack[:0], i)
		r := image.Rect(i%w, i/w, i%w+1, i/w+1)
		sum, n := 0.0, 0
		var mx, my, mxx, myy, mxy float64
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			x, y := j%w, j/w
			sum += float64(prob[j])
			n++
			fx, fy := float64(x), float64(y)
			mx, my, mxx, myy, mxy = mx+fx, my+fy, mxx+fx*fx, myy+fy*fy, mxy+fx*fy
			r = r.Union(image.Rect(x, y, x+1, y+1))
			for _, k := range [4]int{j - 1, j + 1, j - w, j + w} {
				if k < 0 || k >= w*h || (k == j-1 && x == 0) || (k == j+1 && x == w-1) {
					continue
				}
				if label[k] == 0 && prob[k] > thr {
					label[k] = id
					stack = append(stack, k)
				}
			}
		}
		// Principal axis of the region's pixels (second moments).
		fn := float64(n)
		cxx, cyy, cxy := mxx/fn-(mx/fn)*(mx/fn), myy/fn-(my/fn)*(my/fn), mxy/fn-(mx/fn)*(my/fn)
		d := math.Sqrt((cxx-cyy)*(cxx-cyy)/4 + cxy*cxy)
		l1, l2 := (cxx+cyy)/2+d, (cxx+cyy)/2-d
		elong := 1.0
		if l2 > 1e-9 {
			elong = math.Sqrt(l1 / l2)
		}
		out = append(out, component{r: r, score: sum / fn, angle: 0.5 * math.Atan2(2*cxy, cxx-cyy), elong: elong})
	}
	return out
}
