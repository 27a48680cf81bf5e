package crop

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"docsuite/pkg/geom"
)

var colorWhite = color.RGBA{R: 255, G: 255, B: 255, A: 255}

// plane is an 8-bit luma image in row-major order without padding.
type plane struct {
	pix  []uint8
	w, h int
}

func (p plane) at(x, y float64) float64 {
	xi, yi := int(x+0.5), int(y+0.5)
	xi = min(max(xi, 0), p.w-1)
	yi = min(max(yi, 0), p.h-1)
	return float64(p.pix[yi*p.w+xi])
}

// Edge-support parameters on the blurred detection image.
const (
	supportStep     = 3.0 // pixels between samples along a side
	supportProbe    = 3.0 // distance of the inside/outside probes from the line
	supportSlack    = 2   // how far off the line the edge may lie
	supportContrast = 10  // minimum inside/outside luma difference
	frameMargin     = 3.0 // a side this close to the frame is cut by it
	minSideSupport  = 0.3
)

// support measures how much of the quad's outline lies on an edge with a
// consistent contrast (document brighter, or darker, than its surround all
// along a side). Texture gives edges of random sign and scores low. Sides
// lying on the image frame count as supported. It reports false when all
// four sides lie on the frame (the page itself) or one side has almost no
// support.
func support(p plane, q geom.Quad) (float64, bool) {
	r := q.Ring()
	var cx, cy float64
	for _, pt := range r {
		cx += pt.X / 4
		cy += pt.Y / 4
	}
	total, onFrame := 0.0, 0
	for i := range r {
		a, b := r[i], r[(i+1)%4]
		if onFrameSide(a, b, p.w, p.h) {
			total++
			onFrame++
			continue
		}
		s := sideSupport(p, a, b, cx, cy)
		if s < minSideSupport {
			return 0, false
		}
		total += s
	}
	if onFrame == 4 {
		return 0, false
	}
	return total / 4, true
}

func onFrameSide(a, b geom.Point, w, h int) bool {
	fw, fh := float64(w-1), float64(h-1)
	near := func(v, edge float64) bool { return math.Abs(v-edge) <= frameMargin }
	return (near(a.X, 0) && near(b.X, 0)) || (near(a.X, fw) && near(b.X, fw)) ||
		(near(a.Y, 0) && near(b.Y, 0)) || (near(a.Y, fh) && near(b.Y, fh))
}

// sideSupport is the fraction of samples along side ab where the luma
// differs across the side by at least supportContrast with the side's
// dominant sign.
func sideSupport(p plane, a, b geom.Point, cx, cy float64) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l < 1 {
		return 0
	}
	ux, uy := dx/l, dy/l
	nx, ny := -uy, ux // unit normal; flip it to point outward
	mx, my := (a.X+b.X)/2, (a.Y+b.Y)/2
	if (mx-cx)*nx+(my-cy)*ny < 0 {
		nx, ny = -nx, -ny
	}
	n := int(l / supportStep)
	if n < 4 {
		n = 4
	}
	pos, neg := 0, 0
	for i := 0; i < n; i++ {
		t := (float64(i) + 0.5) / float64(n)
		x, y := a.X+t*dx, a.Y+t*dy
		best := 0.0
		for s := -supportSlack; s <= supportSlack; s++ {
			sx, sy := x+float64(s)*nx, y+float64(s)*ny
			d := p.at(sx-supportProbe*nx, sy-supportProbe*ny) - p.at(sx+supportProbe*nx, sy+supportProbe*ny)
			if math.Abs(d) > math.Abs(best) {
				best = d
			}
		}
		switch {
		case best >= supportContrast:
			pos++
		case best <= -supportContrast:
			neg++
		}
	}
	return float64(max(pos, neg)) / float64(n)
}

// lumaOf returns a luma reader for the full-resolution page, reading the
// decoder's own planes where possible (no conversion of the whole page).
func lumaOf(img image.Image) func(x, y int) float64 {
	b := img.Bounds()
	clamp := func(x, y int) (int, int) {
		return min(max(x, 0), b.Dx()-1) + b.Min.X, min(max(y, 0), b.Dy()-1) + b.Min.Y
	}
	switch im := img.(type) {
	case *image.YCbCr:
		return func(x, y int) float64 { x, y = clamp(x, y); return float64(im.Y[im.YOffset(x, y)]) }
	case *image.Gray:
		return func(x, y int) float64 { x, y = clamp(x, y); return float64(im.Pix[im.PixOffset(x, y)]) }
	case *image.RGBA:
		return func(x, y int) float64 {
			x, y = clamp(x, y)
			o := im.PixOffset(x, y)
			return 0.299*float64(im.Pix[o]) + 0.587*float64(im.Pix[o+1]) + 0.114*float64(im.Pix[o+2])
		}
	case *image.NRGBA:
		return func(x, y int) float64 {
			x, y = clamp(x, y)
			o := im.PixOffset(x, y)
			return 0.299*float64(im.Pix[o]) + 0.587*float64(im.Pix[o+1]) + 0.114*float64(im.Pix[o+2])
		}
	}
	return func(x, y int) float64 {
		x, y = clamp(x, y)
		r, g, bb, _ := img.At(x, y).RGBA()
		return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bb)) / 257
	}
}

// Ring test parameters: the band outside a quad is ringGrow of its size
// wide; a quad is a part of a larger document (a photo or MRZ box on a
// tightly cropped ID) when that band is at least ringRatio as busy with
// edges as the quad's inside and busier than ringMinDensity (see ringOf).
const (
	ringGrow       = 0.12
	ringRatio      = 0.5
	ringMinDensity = 0.03
	ringGap        = 4.0
)

// ring compares a quad with the band just outside it.
type ring struct {
	// busy: the band is at least ringRatio as full of edges as the quad's
	// inside, and more than ringMinDensity: a box printed on a larger
	// document (a photo or a zone on a tightly cropped card), or a
	// document on a patterned surround.
	busy bool
	// lighter is how much lighter (mean grey level) the inside is than
	// the band.
	lighter float64
}

// ringOf measures q's inside and the band around it on the blurred small
// image and its edge map. A background (table, cloth, scanner lid) is
// mostly much quieter after blurring than a document.
func ringOf(blur, edges gocv.Mat, q geom.Quad) ring {
	w, h := edges.Cols(), edges.Rows()
	r := q.Ring()
	var cx, cy float64
	for _, p := range r {
		cx += p.X / 4
		cy += p.Y / 4
	}
	sw, sh := q.Size()
	grow := func(d float64) []image.Point {
		out := make([]image.Point, 4)
		for i, p := range r {
			l := math.Hypot(p.X-cx, p.Y-cy)
			if l == 0 {
				l = 1
			}
			out[i] = image.Pt(int(math.Round(p.X+(p.X-cx)/l*d)), int(math.Round(p.Y+(p.Y-cy)/l*d)))
		}
		return out
	}
	// Everything is measured within the outer polygon's bounding box.
	outer := grow(ringGap + ringGrow*(sw+sh)/2)
	var box image.Rectangle
	for i, p := range outer {
		pb := image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))}
		if i == 0 {
			box = pb
		} else {
			box = box.Union(pb)
		}
	}
	box = box.Intersect(image.Rect(0, 0, w, h))
	if box.Empty() {
		return ring{}
	}
	roiEdges, roiBlur := edges.Region(box), blur.Region(box)
	defer roiEdges.Close()
	defer roiBlur.Close()
	mask := func(poly []image.Point) gocv.Mat {
		m := gocv.NewMatWithSize(box.Dy(), box.Dx(), gocv.MatTypeCV8UC1)
		m.SetTo(gocv.NewScalar(0, 0, 0, 0))
		shifted := make([]image.Point, len(poly))
		for i, p := range poly {
			shifted[i] = p.Sub(box.Min)
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{shifted})
		defer pv.Close()
		gocv.FillPoly(&m, pv, colorWhite)
		return m
	}
	count := func(m gocv.Mat) int {
		and := gocv.NewMat()
		defer and.Close()
		gocv.BitwiseAnd(roiEdges, m, &and)
		return gocv.CountNonZero(and)
	}
	// Keep the quad's own outline (a few pixels either side) out of both
	// counts.
	inner := mask(grow(-ringGap))
	defer inner.Close()
	near := mask(grow(ringGap))
	defer near.Close()
	band := mask(outer)
	defer band.Close()
	gocv.Subtract(band, near, &band)
	ain, aband := gocv.CountNonZero(inner), gocv.CountNonZero(band)
	if ain == 0 || aband < ain/20 {
		return ring{}
	}
	din := float64(count(inner)) / float64(ain)
	dband := float64(count(band)) / float64(aband)
	return ring{
		busy:    dband > ringMinDensity && dband >= ringRatio*din,
		lighter: roiBlur.MeanWithMask(inner).Val1 - roiBlur.MeanWithMask(band).Val1,
	}
}
