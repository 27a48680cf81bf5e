package synth

import (
	"image"
	"image/color"
	"math"

	"docsuite/pkg/geom"
)

// drawKeyboard draws rows of keys with letters.
func drawKeyboard(p *painter, img *image.RGBA, r *Rand) {
	W, H := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	key := r.Range(0.045, 0.08) * math.Max(W, H)
	keyCol := Pick(r, []color.RGBA{{50, 50, 55, 255}, {220, 220, 222, 255}, {25, 25, 28, 255}})
	ink := color.RGBA{230, 230, 230, 255}
	if keyCol.R > 128 {
		ink = color.RGBA{40, 40, 40, 255}
	}
	letters := []rune("QWERTYUIOPASDFGHJKLZXCVBNMЙЦУКЕНГШЩЗФЫВАПРОЛДЖЭЯЧСМИТЬБЮ1234567890")
	ox, oy := r.Range(-key, 0), r.Range(-key, 0)
	for row := 0; float64(row)*key*1.1+oy < H; row++ {
		shift := float64(row%3) * key * 0.3
		for col := 0; float64(col)*key*1.1+ox < W; col++ {
			x := ox + shift + float64(col)*key*1.1
			y := oy + float64(row)*key*1.1
			p.fillPoly(img, roundRectPts(x, y, key, key, key*0.15), keyCol)
			p.drawText(img, string(letters[(row*13+col)%len(letters)]), x+key*0.2, y+key*0.45, textStyle{font: "sans", size: key * 0.3, col: ink})
		}
	}
}

// drawPaperStack draws overlapping blank sheets.
func drawPaperStack(p *painter, img *image.RGBA, r *Rand) {
	W, H := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	n := r.IntRange(2, 5)
	for i := 0; i < n; i++ {
		cx, cy := r.Range(0, W), r.Range(0, H)
		w, h := W*r.Range(0.5, 0.9), H*r.Range(0.6, 1.2)
		a := r.Range(-0.5, 0.5)
		pts := rotRect(cx, cy, w, h, a)
		shadow := make([][2]float64, len(pts))
		for j, q := range pts {
			shadow[j] = [2]float64{q[0] + 4, q[1] + 5}
		}
		p.fillPoly(img, shadow, color.RGBA{0, 0, 0, 60})
		p.fillPoly(img, pts, Pick(r, []color.RGBA{{245, 245, 240, 255}, {250, 250, 250, 255}, {238, 236, 228, 255}}))
		if r.Bool(0.5) {
			for k := 0; k < 12; k++ {
				y := -h/2 + h*0.1 + float64(k)*h*0.05
				l := rotPts(cx, cy, a, [][2]float64{{-w * 0.4, y}, {w * r.Range(0, 0.4), y}})
				p.strokePath(img, l, 2, color.RGBA{120, 120, 130, 120})
			}
		}
	}
}

func rotRect(cx, cy, w, h, a float64) [][2]float64 {
	return rotPts(cx, cy, a, [][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}})
}

func rotPts(cx, cy, a float64, pts [][2]float64) [][2]float64 {
	s, c := math.Sincos(a)
	out := make([][2]float64, len(pts))
	for i, q := range pts {
		out[i] = [2]float64{cx + q[0]*c - q[1]*s, cy + q[0]*s + q[1]*c}
	}
	return out
}

// Clutter is an object drawn on the table beside the documents: Kind is
// pen, coin or phone; Quad its outline (TL, TR, BL, BR; a pen's runs along
// it from TL to TR), in scene pixels.
type Clutter struct {
	Kind string
	Quad geom.Quad
}

// ringQuad orders a ring of four corners (as rotRect makes them) as a Quad.
func ringQuad(ring [][2]float64) geom.Quad {
	at := func(i int) geom.Point { return geom.Point{X: ring[i][0], Y: ring[i][1]} }
	return geom.Quad{at(0), at(1), at(3), at(2)}
}

// drawClutter puts pens, coins and a phone on the table, away from the
// documents' centres, and returns them. The phone shows its screen, lit or
// dark: a bare black slab looks like a closed booklet's cover to the
// cropper.
func drawClutter(p *painter, img *image.RGBA, r *Rand, docs []placed) []Clutter {
	W, H := float64(img.Rect.Dx()), float64(img.Rect.Dy())
	n := r.IntRange(1, 3)
	var out []Clutter
	for i := 0; i < n; i++ {
		cx, cy := r.Range(0, W), r.Range(0, H)
		switch r.Intn(3) {
		case 0: // pen
			l, a := r.Range(0.2, 0.35)*math.Max(W, H), r.Range(0, math.Pi)
			out = append(out, Clutter{Kind: "pen", Quad: ringQuad(rotRect(cx, cy, l, l*0.04, a))})
			body := rotPts(cx, cy, a, [][2]float64{{-l / 2, 0}, {l / 2, 0}})
			p.strokePath(img, [][2]float64{{body[0][0] + 5, body[0][1] + 6}, {body[1][0] + 5, body[1][1] + 6}}, l*0.05, color.RGBA{0, 0, 0, 70})
			p.strokePath(img, body, l*0.04, hsl(r.Range(0, 360), 0.6, 0.35, 255))
		case 1: // coin
			rad := r.Range(0.02, 0.035) * math.Max(W, H)
			out = append(out, Clutter{Kind: "coin", Quad: ringQuad(rotRect(cx, cy, 2*rad, 2*rad, 0))})
			p.fillPoly(img, ellipsePts(cx+3, cy+4, rad, rad, 40), color.RGBA{0, 0, 0, 70})
			p.fillPoly(img, ellipsePts(cx, cy, rad, rad, 40), Pick(r, []color.RGBA{{190, 160, 90, 255}, {180, 180, 175, 255}}))
			p.strokePath(img, closeRing(ellipsePts(cx, cy, rad*0.85, rad*0.85, 40)), 2, color.RGBA{120, 110, 80, 200})
		default: // phone, face up: a body, its screen (lit or dark and glossy) and a camera
			w, h := 0.09*math.Max(W, H), 0.18*math.Max(W, H)
			a := r.Range(-1, 1)
			out = append(out, Clutter{Kind: "phone", Quad: ringQuad(rotRect(cx, cy, w, h, a))})
			p.fillPoly(img, rotRect(cx, cy, w, h, a), color.RGBA{20, 20, 24, 255})
			screen := rotRect(cx, cy, w*0.88, h*0.84, a)
			if r.Bool(0.6) {
				p.fillPoly(img, screen, hsl(r.Range(0, 360), r.Range(0.2, 0.7), r.Range(0.3, 0.6), 255))
			} else {
				p.fillPoly(img, screen, color.RGBA{32, 34, 40, 255})
				p.fillPoly(img, rotRect(cx-w*0.15, cy, w*0.18, h*0.8, a+0.35), color.RGBA{255, 255, 255, 28})
			}
			s, c := math.Sincos(a)
			dy := -h * 0.46
			p.fillPoly(img, ellipsePts(cx-dy*s, cy+dy*c, w*0.04, w*0.04, 12), color.RGBA{70, 74, 84, 255})
		}
	}
	return out
}

// drawFingers draws a thumb (sometimes with a second finger and the
// palm) reaching over a document edge, as when a document is held in the
// hand for a photo.
func drawFingers(p *painter, img *image.RGBA, r *Rand, docs []placed) {
	if len(docs) == 0 {
		return
	}
	d := Pick(r, docs)
	q := ringOf(d.quad)
	dw, _ := d.quad.Size()
	// a thumb is about 18 mm wide: scale from the document's own size
	mm := float64(d.doc.Img.Rect.Dx()) / d.doc.scale()
	fw := dw / mm * r.Range(15, 21)
	skin := Pick(r, []color.RGBA{{228, 184, 158, 255}, {210, 160, 130, 255}, {180, 130, 100, 255}, {140, 95, 70, 255}, {240, 205, 185, 255}})
	dark := mix(skin, color.RGBA{60, 30, 20, 255}, 0.25)
	cx := (q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4
	cy := (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4
	e := r.Intn(4)
	a, b := q[e], q[(e+1)%4]
	n := r.IntRange(1, 2)
	for k := 0; k < n; k++ {
		t := r.Range(0.15, 0.85)
		edge := [2]float64{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t}
		dx, dy := edge[0]-cx, edge[1]-cy
		l := math.Hypot(dx, dy)
		dx, dy = dx/l, dy/l
		// tilt the finger a little away from the edge normal
		tilt := r.Range(-0.5, 0.5)
		s, c := math.Sincos(tilt)
		dx, dy = dx*c-dy*s, dx*s+dy*c
		depth := fw * r.Range(0.3, 1.3)
		tip := [2]float64{edge[0] - dx*depth, edge[1] - dy*depth}
		// the finger runs out of the frame, as a thumb of a holding hand
		W, H := float64(img.Rect.Dx()), float64(img.Rect.Dy())
		length := fw * 12
		for _, tt := range []float64{(0 - tip[0]) / dx, (W - tip[0]) / dx, (0 - tip[1]) / dy, (H - tip[1]) / dy} {
			if tt > 0 && tt+fw < length {
				length = tt + fw
			}
		}
		length = math.Max(length, fw*3)
		base := [2]float64{tip[0] + dx*length, tip[1] + dy*length}
		p.strokePath(img, [][2]float64{{tip[0] + fw*0.15, tip[1] + fw*0.2}, {base[0] + fw*0.15, base[1] + fw*0.2}}, fw*1.05, color.RGBA{0, 0, 0, 55})
		p.strokePath(img, [][2]float64{tip, base}, fw, dark)
		p.strokePath(img, [][2]float64{{tip[0] + dx*fw*0.05, tip[1] + dy*fw*0.05}, base}, fw*0.75, skin)
		p.fillPoly(img, ellipsePts(tip[0], tip[1], fw/2, fw/2, 24), mix(skin, dark, 0.4))
		p.fillPoly(img, ellipsePts(tip[0]+dx*fw*0.05, tip[1]+dy*fw*0.05, fw*0.4, fw*0.4, 24), skin)
		ang := math.Atan2(dy, dx)
		nx, ny := tip[0]+dx*fw*0.3, tip[1]+dy*fw*0.3
		p.fillPoly(img, rotPts(nx, ny, ang, ellipseLocal(fw*0.3, fw*0.27)), mix(skin, color.RGBA{255, 235, 235, 255}, 0.5))
		// knuckle crease
		kx, ky := tip[0]+dx*fw*1.3, tip[1]+dy*fw*1.3
		p.strokePath(img, rotPts(kx, ky, ang, [][2]float64{{0, -fw * 0.25}, {0, fw * 0.25}}), math.Max(1, fw*0.04), dark)
		a, b = b, q[(e+2)%4]
		if r.Bool(0.5) {
			break
		}
	}
}

func ellipseLocal(rx, ry float64) [][2]float64 {
	return ellipsePts(0, 0, rx, ry, 20)
}
