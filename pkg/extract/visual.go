package extract

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"strings"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/ocr"
)

// readVisual reads one field region with Tesseract; a vertical field is
// turned upright first.
func (x *Extractor) readVisual(ctx context.Context, img image.Image, r image.Rectangle, v visual, vertical bool) (read, error) {
	if vertical {
		// Printed along the edge, reading up on some forms and down on
		// others: the turn whose reading has the field's format wins.
		var best read
		for _, turn := range []geom.Rotation{1, 3} {
			sub, err := cvimg.Turn(cvimg.Sub(img, r), turn)
			if err != nil {
				return read{}, fmt.Errorf("extract: turn field: %w", err)
			}
			got, err := x.readRegion(ctx, sub, r, v, false)
			if err != nil {
				return read{}, err
			}
			if got.text != "" && got.conf > best.conf {
				best = got
			}
		}
		best.rect = r
		return best, nil
	}
	return x.readRegion(ctx, cvimg.Sub(img, r), r, v, true)
}

// readRegion reads one field from sub, the crop's region r (turned
// upright when the field is printed along the edge); onWords places the
// field on the words read (and drops captions), else it stays on r.
func (x *Extractor) readRegion(ctx context.Context, sub image.Image, r image.Rectangle, v visual, onWords bool) (read, error) {
	txt, lines, err := x.ocr.ReadField(ctx, sub, ocr.FieldOptions{Whitelist: v.whitelist, Block: v.block})
	if err != nil {
		return read{}, fmt.Errorf("extract: %w", err)
	}
	if onWords {
		// A region also catches the small printed captions beside the
		// value: their words are smaller, and Tesseract is unsure of them.
		minHeight, minConf := 0.7, 0.5
		if v.block {
			minHeight, minConf = 0.5, 0.3
		}
		if err := x.rereadDoubtful(ctx, sub, lines, v, minHeight, minConf); err != nil {
			return read{}, err
		}
		if !v.block {
			var err error
			if lines, err = x.rereadLine(ctx, sub, lines, v, minConf); err != nil {
				return read{}, err
			}
		}
		txt, lines = valueWords(lines, minHeight, minConf)
	}
	out := read{text: v.format(strings.ToUpper(txt)), rect: r}
	if len(lines) > 0 {
		sum := 0.0
		box := image.Rectangle{}
		n := 0
		for i, l := range lines {
			for _, w := range l.Words {
				sum += w.Confidence
				n++
			}
			lr := image.Rect(l.Coords[0][0], l.Coords[0][1], l.Coords[3][0], l.Coords[3][1])
			if i == 0 {
				box = lr
			} else {
				box = box.Union(lr)
			}
		}
		out.conf = sum / float64(max(n, 1))
		if out.text != "" {
			out.conf = max(out.conf, v.floor)
		}
		if onWords {
			out.rect = box.Add(r.Min)
		}
	}
	return out, nil
}

// asRGBA returns img itself when it is an *image.RGBA, else a copy of it
// as one (same bounds), for the loops over its pixels.
func asRGBA(img image.Image) *image.RGBA {
	if rgba, ok := img.(*image.RGBA); ok {
		return rgba
	}
	b := img.Bounds()
	rgba := image.NewRGBA(b)
	draw.Draw(rgba, b, img, b.Min, draw.Src)
	return rgba
}
