package synth

import (
	"image"
	"image/color"
	"math"

	"docsuite/pkg/doctypes"
)

// notDocument renders a photo print (a crop of a background photograph
// with a white border) or a drawing on paper.
func (g *Generator) notDocument(r *Rand, p *painter) *Doc {
	const pxmm = 6.0
	wmm, hmm := 150.0, 100.0
	switch r.Intn(3) {
	case 1:
		wmm, hmm = 100, 150
	case 2:
		wmm, hmm = 120, 120
	}
	W, H := int(wmm*pxmm), int(hmm*pxmm)
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	border := 0
	if r.Bool(0.6) {
		border = int(r.Range(0, 6) * pxmm)
	}
	fillRect(img, img.Rect, Pick(r, []color.RGBA{{250, 250, 248, 255}, {244, 242, 236, 255}}))
	inner := image.Rect(border, border, W-border, H-border)
	if len(g.bgs.paths) > 0 && r.Bool(0.65) {
		if src := g.bgs.get(r.Intn(len(g.bgs.paths))); src != nil {
			if ph := cropPhoto(r, src, inner.Dx(), inner.Dy()); ph != nil {
				for y := 0; y < inner.Dy(); y++ {
					copy(img.Pix[img.PixOffset(inner.Min.X, inner.Min.Y+y):], ph.Pix[y*ph.Stride:(y+1)*ph.Stride])
				}
				return &Doc{Type: doctypes.NotDocument, Img: img, Fields: map[string]string{}, Boxes: map[string][4]float64{}, PxPerMM: pxmm, Special: true}
			}
		}
	}
	sub := img.SubImage(inner).(*image.RGBA)
	drawPicture(p, sub, r)
	return &Doc{Type: doctypes.NotDocument, Img: img, Fields: map[string]string{}, Boxes: map[string][4]float64{}, PxPerMM: pxmm, Special: true}
}

// drawPicture paints a landscape, a still life or an abstract drawing.
func drawPicture(p *painter, img *image.RGBA, r *Rand) {
	b := img.Rect
	W, H := float64(b.Dx()), float64(b.Dy())
	ox, oy := float64(b.Min.X), float64(b.Min.Y)
	switch r.Intn(3) {
	case 0: // landscape
		sky := hsl(r.Range(190, 220), r.Range(0.4, 0.8), r.Range(0.6, 0.85), 255)
		fillRect(img, b, sky)
		p.fillPoly(img, ellipsePts(ox+W*r.Range(0.1, 0.9), oy+H*r.Range(0.1, 0.3), W*0.07, W*0.07, 30), color.RGBA{250, 220, 90, 255})
		for k := 0; k < 3; k++ {
			base := oy + H*(0.5+0.15*float64(k))
			pts := [][2]float64{{ox, oy + H}}
			for x := 0.0; x <= W; x += W / 20 {
				pts = append(pts, [2]float64{ox + x, base - H*0.12*math.Sin(x/W*math.Pi*r.Range(1, 3)+r.Range(0, 3))})
			}
			pts = append(pts, [2]float64{ox + W, oy + H})
			p.fillPoly(img, pts, hsl(r.Range(80, 150), r.Range(0.3, 0.7), 0.25+0.1*float64(k), 255))
		}
		for k := 0; k < r.IntRange(1, 4); k++ {
			tx, ty := ox+r.Range(0.1, 0.9)*W, oy+r.Range(0.6, 0.85)*H
			p.fillPoly(img, [][2]float64{{tx - W*0.01, ty}, {tx + W*0.01, ty}, {tx + W*0.01, ty - H*0.12}, {tx - W*0.01, ty - H*0.12}}, color.RGBA{90, 60, 30, 255})
			p.fillPoly(img, ellipsePts(tx, ty-H*0.17, W*0.05, H*0.08, 24), color.RGBA{40, 110, 50, 255})
		}
	case 1: // still life: table, vase, fruit
		fillRect(img, b, hsl(r.Range(0, 360), 0.2, 0.75, 255))
		fillRect(img, image.Rect(b.Min.X, b.Min.Y+int(H*0.6), b.Max.X, b.Max.Y), hsl(r.Range(20, 40), 0.4, 0.4, 255))
		vx := ox + W*r.Range(0.3, 0.7)
		p.fillPoly(img, ellipsePts(vx, oy+H*0.5, W*0.1, H*0.2, 40), hsl(r.Range(0, 360), 0.6, 0.45, 255))
		for k := 0; k < r.IntRange(2, 5); k++ {
			p.fillPoly(img, ellipsePts(ox+W*r.Range(0.1, 0.9), oy+H*r.Range(0.65, 0.8), W*0.04, W*0.04, 20), hsl(r.Range(0, 60), 0.8, 0.5, 255))
		}
	default: // abstract drawing
		fillRect(img, b, color.RGBA{250, 250, 246, 255})
		for k := 0; k < r.IntRange(6, 20); k++ {
			col := hsl(r.Range(0, 360), r.Range(0.5, 1), r.Range(0.3, 0.6), 255)
			switch r.Intn(3) {
			case 0:
				p.fillPoly(img, ellipsePts(ox+r.Float()*W, oy+r.Float()*H, r.Range(0.03, 0.2)*W, r.Range(0.03, 0.2)*H, 30), col)
			case 1:
				var pts [][2]float64
				for j := 0; j < 8; j++ {
					pts = append(pts, [2]float64{ox + r.Float()*W, oy + r.Float()*H})
				}
				p.strokePath(img, smooth(pts), r.Range(2, 10), col)
			default:
				p.fillPoly(img, rotRect(ox+r.Float()*W, oy+r.Float()*H, r.Range(0.05, 0.3)*W, r.Range(0.05, 0.3)*H, r.Range(0, 3)), col)
			}
		}
	}
}
