package ocr

import (
	"fmt"
	"image"

	"docsuite/pkg/cvimg"
)

// shrink scales img down (area-averaged, grey; cvimg.GrayScaled) so
// that its longer side is at most side pixels, and returns the factor it
// was scaled by; a smaller image comes back as it is, with factor 1.
func shrink(img image.Image, side int) (image.Image, float64, error) {
	b := img.Bounds()
	if max(b.Dx(), b.Dy()) <= side {
		return img, 1, nil
	}
	m, scale, err := cvimg.GrayScaled(img, side)
	if err != nil {
		return nil, 0, fmt.Errorf("ocr: shrink page: %w", err)
	}
	defer m.Close()
	out, err := cvimg.ToImage(m)
	if err != nil {
		return nil, 0, fmt.Errorf("ocr: shrink page: %w", err)
	}
	return out, 1 / scale, nil
}

// scaled is p, read on a copy of a page scaled by 1/f, with its boxes
// scaled by f onto the page's own w x h pixels.
func scaled(p Page, f float64, w, h int) Page {
	at := func(q [4][2]int) [4][2]int {
		for i := range q {
			q[i] = [2]int{min(w, int(float64(q[i][0])*f+0.5)), min(h, int(float64(q[i][1])*f+0.5))}
		}
		return q
	}
	p.Width, p.Height = w, h
	for i := range p.Lines {
		l := &p.Lines[i]
		l.Coords = at(l.Coords)
		for j := range l.Words {
			l.Words[j].Coords = at(l.Words[j].Coords)
		}
	}
	return p
}
