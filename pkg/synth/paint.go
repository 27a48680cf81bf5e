package synth

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// begin starts a new path whose mask covers r (dst pixel coordinates).
func (p *painter) begin(r image.Rectangle) {
	p.org = r.Min
	p.ras.Reset(r.Dx(), r.Dy())
}

func (p *painter) moveTo(x, y float64) {
	p.ras.MoveTo(float32(x-float64(p.org.X)), float32(y-float64(p.org.Y)))
}

func (p *painter) lineTo(x, y float64) {
	p.ras.LineTo(float32(x-float64(p.org.X)), float32(y-float64(p.org.Y)))
}

func (p *painter) quadTo(ax, ay, bx, by float64) {
	ox, oy := float64(p.org.X), float64(p.org.Y)
	p.ras.QuadTo(float32(ax-ox), float32(ay-oy), float32(bx-ox), float32(by-oy))
}

func (p *painter) cubeTo(ax, ay, bx, by, cx, cy float64) {
	ox, oy := float64(p.org.X), float64(p.org.Y)
	p.ras.CubeTo(float32(ax-ox), float32(ay-oy), float32(bx-ox), float32(by-oy), float32(cx-ox), float32(cy-oy))
}

// fill blends col through the accumulated path mask onto dst.
func (p *painter) fill(dst *image.RGBA, col color.RGBA) {
	sz := p.ras.Size()
	if sz.X <= 0 || sz.Y <= 0 {
		return
	}
	if p.mask == nil || cap(p.mask.Pix) < sz.X*sz.Y {
		p.mask = image.NewAlpha(image.Rect(0, 0, sz.X, sz.Y))
	} else {
		p.mask.Pix = p.mask.Pix[:sz.X*sz.Y]
		p.mask.Stride = sz.X
		p.mask.Rect = image.Rect(0, 0, sz.X, sz.Y)
	}
	p.ras.DrawOp = draw.Src
	p.ras.Draw(p.mask, p.mask.Rect, image.Opaque, image.Point{})
	blendMask(dst, p.mask, p.org, col)
}

// blendMask paints col with coverage mask (placed at org) over dst. col
// is not premultiplied; its alpha scales the coverage.
func blendMask(dst *image.RGBA, mask *image.Alpha, org image.Point, col color.RGBA) {
	r := mask.Rect.Add(org).Intersect(dst.Rect)
	if r.Empty() {
		return
	}
	ca := uint32(col.A)
	cr, cg, cb := uint32(col.R), uint32(col.G), uint32(col.B)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		mrow := mask.Pix[(y-org.Y)*mask.Stride:]
		drow := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := r.Min.X; x < r.Max.X; x++ {
			m := uint32(mrow[x-org.X])
			if m == 0 {
				continue
			}
			a := m * ca / 255
			i := 4 * (x - r.Min.X)
			drow[i] = uint8((uint32(drow[i])*(255-a) + cr*a) / 255)
			drow[i+1] = uint8((uint32(drow[i+1])*(255-a) + cg*a) / 255)
			drow[i+2] = uint8((uint32(drow[i+2])*(255-a) + cb*a) / 255)
			da := uint32(drow[i+3])
			drow[i+3] = uint8(da + (255-da)*a/255)
		}
	}
}

// bounds returns the integer rectangle around points, padded by pad.
func bounds(pts [][2]float64, pad float64) image.Rectangle {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range pts {
		minX, maxX = math.Min(minX, q[0]), math.Max(maxX, q[0])
		minY, maxY = math.Min(minY, q[1]), math.Max(maxY, q[1])
	}
	return image.Rect(int(math.Floor(minX-pad)), int(math.Floor(minY-pad)), int(math.Ceil(maxX+pad))+1, int(math.Ceil(maxY+pad))+1)
}

// fillPoly fills a closed polygon.
func (p *painter) fillPoly(dst *image.RGBA, pts [][2]float64, col color.RGBA) {
	if len(pts) < 3 {
		return
	}
	r := bounds(pts, 1)
	if r.Intersect(dst.Rect).Empty() {
		return
	}
	p.begin(r)
	p.moveTo(pts[0][0], pts[0][1])
	for _, q := range pts[1:] {
		p.lineTo(q[0], q[1])
	}
	p.ras.ClosePath()
	p.fill(dst, col)
}

// strokePath draws a polyline of width w (pixels) as a union of segment
// quads and round-ish joints.
func (p *painter) strokePath(dst *image.RGBA, pts [][2]float64, w float64, col color.RGBA) {
	if len(pts) < 2 {
		return
	}
	r := bounds(pts, w+1)
	if r.Intersect(dst.Rect).Empty() {
		return
	}
	p.begin(r)
	h := w / 2
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		dx, dy := b[0]-a[0], b[1]-a[1]
		l := math.Hypot(dx, dy)
		if l < 1e-6 {
			continue
		}
		// extend slightly so consecutive segments overlap at joints
		ex, ey := dx/l*h*0.9, dy/l*h*0.9
		nx, ny := -dy/l*h, dx/l*h
		p.moveTo(a[0]+nx-ex, a[1]+ny-ey)
		p.lineTo(b[0]+nx+ex, b[1]+ny+ey)
		p.lineTo(b[0]-nx+ex, b[1]-ny+ey)
		p.lineTo(a[0]-nx-ex, a[1]-ny-ey)
		p.ras.ClosePath()
	}
	p.fill(dst, col)
}

// ellipsePts returns n points on an ellipse.
func ellipsePts(cx, cy, rx, ry float64, n int) [][2]float64 {
	out := make([][2]float64, n)
	for i := range out {
		t := 2 * math.Pi * float64(i) / float64(n)
		out[i] = [2]float64{cx + rx*math.Cos(t), cy + ry*math.Sin(t)}
	}
	return out
}

// roundRectPts returns the outline of a rounded rectangle.
func roundRectPts(x, y, w, h, r float64) [][2]float64 {
	if r <= 0 {
		return [][2]float64{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}
	}
	r = math.Min(r, math.Min(w, h)/2)
	var out [][2]float64
	corner := func(cx, cy, a0 float64) {
		for i := 0; i <= 6; i++ {
			a := a0 + float64(i)/6*math.Pi/2
			out = append(out, [2]float64{cx + r*math.Cos(a), cy + r*math.Sin(a)})
		}
	}
	corner(x+w-r, y+r, -math.Pi/2)
	corner(x+w-r, y+h-r, 0)
	corner(x+r, y+h-r, math.Pi/2)
	corner(x+r, y+r, math.Pi)
	return out
}

// fillRect fills an axis-aligned rectangle (no anti-aliasing needed).
func fillRect(dst *image.RGBA, r image.Rectangle, col color.RGBA) {
	r = r.Intersect(dst.Rect)
	a := uint32(col.A)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := 0; x < r.Dx(); x++ {
			i := 4 * x
			row[i] = uint8((uint32(row[i])*(255-a) + uint32(col.R)*a) / 255)
			row[i+1] = uint8((uint32(row[i+1])*(255-a) + uint32(col.G)*a) / 255)
			row[i+2] = uint8((uint32(row[i+2])*(255-a) + uint32(col.B)*a) / 255)
			row[i+3] = uint8(uint32(row[i+3]) + (255-uint32(row[i+3]))*a/255)
		}
	}
}
