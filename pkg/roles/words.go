package roles

import (
	"context"
	"image"
	"sort"

	xdraw "golang.org/x/image/draw"

	"docsuite/pkg/classify"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/ocr"
	"docsuite/pkg/ppocr"
)

// The printed words the classifier reads as evidence (classify.TypeWords):
// the wordLines tallest text lines of the upright crop, each read alone
// with Tesseract (Russian and English) at wordLineHeight pixels. Titles
// and captions are a document's tallest printed lines but for its values;
// reading the whole crop costs seconds on a noisy photograph.
const (
	wordLines      = 10
	wordLineHeight = 32
	// maxLineScale is the most a line is enlarged: small print blown up
	// reads no better and costs Tesseract time in proportion to width.
	maxLineScale = 2
	// wordLineAspect is the least width, in heights, of a line worth
	// reading: shorter boxes are digits, stamps and speckles.
	wordLineAspect = 1.5
	// minWordLinePx is the least height, in crop pixels, of a line worth
	// reading.
	minWordLinePx = 8
)

// uprightWords reads the printed words of img turned by rot; boxes are its
// text lines, detected on it unturned.
func (z *zoneReader) uprightWords(ctx context.Context, img image.Image, boxes []ppocr.Box, rot geom.Rotation) ([]string, error) {
	up, err := cvimg.Turn(img, rot)
	if err != nil {
		return nil, err
	}
	rects, _, _ := turnBoxes(boxes, img.Bounds(), rot)
	return readWords(ctx, z.tess, up, rects)
}

// readWords reads the words of the tallest text lines of up, the crop
// turned upright; rects are its detected lines in up's coordinates (origin
// at 0,0).
func readWords(ctx context.Context, eng *ocr.Engine, up image.Image, rects []image.Rectangle) ([]string, error) {
	var lines []image.Rectangle
	for _, r := range rects {
		if r.Dy() >= minWordLinePx && float64(r.Dx()) >= wordLineAspect*float64(r.Dy()) {
			lines = append(lines, r)
		}
	}
	sort.SliceStable(lines, func(a, b int) bool { return lines[a].Dy() > lines[b].Dy() })
	lines = lines[:min(len(lines), wordLines)]
	var words []string
	ob := up.Bounds()
	for _, r := range lines {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pad := r.Dy() / 5
		box := image.Rect(r.Min.X-pad, r.Min.Y-pad, r.Max.X+pad, r.Max.Y+pad).Add(ob.Min).Intersect(ob)
		if box.Empty() {
			continue
		}
		text, _, err := eng.ReadField(ctx, scaleLine(up, box), ocr.FieldOptions{})
		if err != nil {
			return nil, err
		}
		words = append(words, classify.SplitWords(text)...)
	}
	return words, nil
}

// scaleLine returns the region box of img scaled to wordLineHeight pixels
// tall, or enlarged maxLineScale times when that is less (text lines are
// read best at a fixed height).
func scaleLine(img image.Image, box image.Rectangle) image.Image {
	f := min(maxLineScale, float64(wordLineHeight+2*wordLineHeight/5)/float64(box.Dy()))
	w := max(1, int(float64(box.Dx())*f+0.5))
	h := max(1, int(float64(box.Dy())*f+0.5))
	dst := image.NewGray(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, box, xdraw.Src, nil)
	return dst
}
