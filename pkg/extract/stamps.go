package extract

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"gocv.io/x/gocv"
	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"docsuite/pkg/cvimg"
)

// Finding the rectangular stamps of a residence page. A registration or
// deregistration stamp is a rectangle outlined and filled with text in
// stamp ink (blue to violet); the page's own print is red-purple and pink,
// its security patterns pale. The stamps are found as near-rectangular
// outlines (or their interiors) of ink of a stamp's size.

// stamp is one stamp found on the crop: its corners (top-left, top-right,
// bottom-right, bottom-left, clockwise) and its upright picture.
type stamp struct {
	corners [4][2]float64
	center  [2]float64
	angle   float64 // radians the stamp is turned clockwise on the crop
	w, h    float64
	img     *image.Gray // upright, the ink dark on white
	colour  *image.RGBA // upright, as photographed
}

// stampWork is the width crops are shrunk to for finding stamps: a
// residence page (125 mm wide) at about 6.4 pixels a millimetre.
const stampWork = 800

// blockPx is the gap, in working pixels (about 6 mm), that joins a
// stamp's lines and outline into one block.
const blockPx = 41

// findStamps returns the stamps of an upright residence-page crop, in
// reading order (upper page before lower, left before right in a row).
func findStamps(img image.Image) ([]stamp, error) {
	small, scale := shrink(img, stampWork)
	found, err := stampRects(small)
	if err != nil {
		return nil, err
	}
	// The outline's outer edge and its interior are one stamp: keep the
	// larger of two that overlap.
	sort.Slice(found, func(i, j int) bool { return found[i].Width*found[i].Height > found[j].Width*found[j].Height })
	var keep []gocv.RotatedRect
	for _, f := range found {
		dup := false
		for _, k := range keep {
			if overlap(f.BoundingRect, k.BoundingRect) > 0.6 {
				dup = true
				break
			}
		}
		if !dup {
			keep = append(keep, f)
		}
	}
	out := make([]stamp, 0, len(keep))
	for _, rr := range keep {
		out = append(out, uprightStamp(img, rr, scale))
	}
	sortReading(out)
	return out, nil
}

// inkMask marks the pixels of stamp ink: as found (raw) and with the
// outlines closed.
func inkMask(img image.Image) (raw, closed gocv.Mat, err error) {
	score, err := cvimg.Gray(blueness(img))
	if err != nil {
		return gocv.NewMat(), gocv.NewMat(), fmt.Errorf("extract: stamps: %w", err)
	}
	defer score.Close()
	// Ink stands above its surroundings' blueness (which a photo's colour
	// cast moves).
	bg := gocv.NewMat()
	defer bg.Close()
	gocv.MedianBlur(score, &bg, 51)
	mask := gocv.NewMat()
	gocv.Subtract(score, bg, &mask)
	gocv.Threshold(mask, &mask, inkRise, 255, gocv.ThresholdBinary)
	raw = mask.Clone()
	// The outline, a thin light line, comes out in dashes: thickened, then
	// closed along each axis, they join (text lines become bars, inside).
	thick := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(5, 5))
	gocv.Dilate(mask, &mask, thick)
	thick.Close()
	for _, sz := range []image.Point{{21, 1}, {1, 21}} {
		k := gocv.GetStructuringElement(gocv.MorphRect, sz)
		gocv.MorphologyEx(mask, &mask, gocv.MorphClose, k)
		k.Close()
	}
	return raw, mask, nil
}

// stampRects finds the stamps on the working-size crop.
func stampRects(small image.Image) ([]gocv.RotatedRect, error) {
	raw, mask, err := inkMask(small)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	defer mask.Close()
	// What a closed outline of a stamp's size (or a few overlapping)
	// encloses is a stamp: filled, then eroded by blockPx, blocks that
	// only touch (two stamps overlapping at a corner) part, and thin
	// strokes (a signature across the outline) go. Stamps side by side
	// that closing joined are cut apart between their facing sides.
	W := float64(small.Bounds().Dx())
	outer := gocv.FindContours(mask, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer outer.Close()
	solid := gocv.Zeros(mask.Rows(), mask.Cols(), gocv.MatTypeCV8U)
	defer solid.Close()
	var cuts []image.Rectangle
	for i := 0; i < outer.Size(); i++ {
		rr := gocv.MinAreaRect(outer.At(i))
		w, h := float64(max(rr.Width, rr.Height)), float64(min(rr.Width, rr.Height))
		// One stamp or a few overlapping, not the page's edge.
		if w >= 0.25*W && h >= 0.1*W && h <= 0.7*W {
			gocv.DrawContours(&solid, outer, i, color.RGBA{255, 255, 255, 255}, -1)
			cuts = append(cuts, rr.BoundingRect)
		}
	}
	rawPix := raw.ToBytes()
	for _, br := range cuts {
		if float64(br.Dx()) < 2.4*float64(br.Dy()) {
			continue
		}
		if a, b, ok := edgeCut(rawPix, raw.Cols(), br.Intersect(image.Rect(0, 0, raw.Cols(), raw.Rows()))); ok {
			gocv.Line(&solid, a, b, color.RGBA{}, 3)
		}
	}
	blk := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(blockPx, blockPx))
	defer blk.Close()
	gocv.Erode(solid, &solid, blk)
	cs := gocv.FindContours(solid, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer cs.Close()
	var found []gocv.RotatedRect
	for i := 0; i < cs.Size(); i++ {
		c := cs.At(i)
		rr := gocv.MinAreaRect(c)
		// Grown back by what the erosion took.
		rr.Width += blockPx - 1
		rr.Height += blockPx - 1
		w, h := float64(rr.Width), float64(rr.Height)
		if h > w {
			w, h = h, w
		}
		if w < 0.25*W || w > 0.7*W || w/h < 1.2 || w/h > 2.8 {
			continue
		}
		if gocv.ContourArea(c) < 0.7*(w-blockPx)*(h-blockPx) {
			continue
		}
		found = append(found, rr)
	}
	return found, nil
}

// edgeCut finds where to part stamps side by side that closing joined
// into the block r: between the right edge of one and the left edge of
// the next, the outline's sides, which are the lines across r (leaning at
// most 8 degrees, as stamps are turned) with the most ink in pix (a mask
// cols wide). ok is false when r's middle half has no such side, or sides
// too far apart to be a neighbours' pair. The cut runs from top to bottom
// of r.
func edgeCut(pix []byte, cols int, r image.Rectangle) (top, bottom image.Point, ok bool) {
	h := r.Dy()
	count := func(x0 int, lean float64) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			x := x0 + int(lean*float64(y-r.Min.Y-h/2))
			if x >= r.Min.X && x < r.Max.X && pix[y*cols+x] != 0 {
				n++
			}
		}
		return n
	}
	lo, hi := r.Min.X+r.Dx()/4, r.Min.X+r.Dx()*3/4
	bestLean, bestPeak := 0.0, -1
	for deg := -8; deg <= 8; deg++ {
		lean := math.Tan(float64(deg) * math.Pi / 180)
		for x0 := lo; x0 < hi; x0++ {
			if n := count(x0, lean); n > bestPeak {
				bestLean, bestPeak = lean, n
			}
		}
	}
	if bestPeak < h/2 {
		return top, bottom, false
	}
	first, last := -1, -1
	for x0 := lo; x0 < hi; x0++ {
		if count(x0, bestLean) >= h/2 {
			if first < 0 {
				first = x0
			}
			last = x0
		}
	}
	if last-first > r.Dx()*15/100 {
		return top, bottom, false
	}
	x0 := (first + last) / 2
	top = image.Pt(x0-int(bestLean*float64(h/2)), r.Min.Y)
	bottom = image.Pt(x0+int(bestLean*float64(h-h/2)), r.Max.Y)
	return top, bottom, true
}

// overlap is the area of a and b's intersection over the smaller's.
func overlap(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() {
		return 0
	}
	s := min(a.Dx()*a.Dy(), b.Dx()*b.Dy())
	return float64(in.Dx()*in.Dy()) / float64(max(s, 1))
}

// sortReading orders stamps as they are read: by rows (centres closer
// than half a stamp's height are one row), left to right in a row.
func sortReading(s []stamp) {
	sort.SliceStable(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if math.Abs(a.center[1]-b.center[1]) > 0.5*math.Min(a.h, b.h) {
			return a.center[1] < b.center[1]
		}
		return a.center[0] < b.center[0]
	})
}

// uprightStamp cuts the stamp rr (found on the crop shrunk by scale) out of
// img, turned level, as ink on white.
func uprightStamp(img image.Image, rr gocv.RotatedRect, scale float64) stamp {
	// The long side is the stamp's width; the angle turns it level.
	pts := rr.Points
	var best [2]image.Point
	bestLen := -1.0
	for i := range pts {
		a, b := pts[i], pts[(i+1)%len(pts)]
		if l := math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)); l > bestLen {
			bestLen, best = l, [2]image.Point{a, b}
		}
	}
	a, b := best[0], best[1]
	if a.X > b.X {
		a, b = b, a
	}
	ang := math.Atan2(float64(b.Y-a.Y), float64(b.X-a.X))
	w, h := float64(rr.Width), float64(rr.Height)
	if h > w {
		w, h = h, w
	}
	// Centre and size on the full-size crop, with a margin for the ink
	// the outline's detection shaved off.
	cx, cy := float64(rr.Center.X)*scale+float64(img.Bounds().Min.X), float64(rr.Center.Y)*scale+float64(img.Bounds().Min.Y)
	w, h = w*scale*1.04, h*scale*1.08
	sin, cos := math.Sincos(ang)
	s := stamp{center: [2]float64{cx, cy}, angle: ang, w: w, h: h}
	for i, d := range [4][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}} {
		s.corners[i] = [2]float64{cx + d[0]*cos - d[1]*sin, cy + d[0]*sin + d[1]*cos}
	}
	// Out pixel (u, v) comes from the crop at centre + R(ang)(u - w/2, v - h/2).
	W, H := int(math.Round(w)), int(math.Round(h))
	rgba := image.NewRGBA(image.Rect(0, 0, W, H))
	tr := f64.Aff3{cos, -sin, cx - cos*w/2 + sin*h/2, sin, cos, cy - sin*w/2 - cos*h/2}
	xdraw.BiLinear.Transform(rgba, invert(tr), img, img.Bounds(), xdraw.Src, nil)
	s.img = inkOnWhite(rgba)
	s.colour = rgba
	return s
}

// invert is the inverse of an affine map (x/image/draw maps source to
// destination).
func invert(m f64.Aff3) f64.Aff3 {
	det := m[0]*m[4] - m[1]*m[3]
	a, b, c, d := m[4]/det, -m[1]/det, -m[3]/det, m[0]/det
	return f64.Aff3{a, b, -(a*m[2] + b*m[5]), c, d, -(c*m[2] + d*m[5])}
}

// toCrop maps a point of the stamp's upright picture to the crop.
func (s stamp) toCrop(u, v float64) [2]int {
	sin, cos := math.Sincos(s.angle)
	x := s.center[0] + (u-s.w/2)*cos - (v-s.h/2)*sin
	y := s.center[1] + (u-s.w/2)*sin + (v-s.h/2)*cos
	return [2]int{int(math.Round(x)), int(math.Round(y))}
}

// quadOf maps a rectangle of the stamp's picture to the crop's corners
// (top-left, top-right, bottom-left, bottom-right).
func (s stamp) quadOf(r image.Rectangle) [4][2]int {
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	return [4][2]int{s.toCrop(x0, y0), s.toCrop(x1, y0), s.toCrop(x0, y1), s.toCrop(x1, y1)}
}

// inkRise is how far (in blueness levels) ink stands above the page.
const inkRise = 9

// blueLevel is how much bluer than its green a colour is, less how much
// redder than blue: stamp and pen ink (blue to violet) score high, the
// page's red-purple print and pink patterns, white and grey nothing.
func blueLevel(r, g, b float64) float64 {
	return b - g - math.Max(0, r-b)
}

// blueness maps img to grey levels 128 + blueLevel (clamped).
func blueness(img image.Image) *image.Gray {
	b := img.Bounds()
	rgba := asRGBA(img)
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := rgba.PixOffset(x, y)
			v := blueLevel(float64(rgba.Pix[i]), float64(rgba.Pix[i+1]), float64(rgba.Pix[i+2]))
			out.Pix[out.PixOffset(x, y)] = uint8(clampF(128+v, 0, 255))
		}
	}
	return out
}

// inkOnWhite keeps stamp and pen ink and whitens the page's print and
// patterns. Blueness (from colour, which JPEG keeps at half resolution)
// says where ink is: how much bluer than the stamp's median (its paper) a
// pixel is; the strokes' shape comes from the brightness.
func inkOnWhite(img *image.RGBA) *image.Gray {
	g := blueness(img)
	var hist [256]int
	for _, v := range g.Pix {
		hist[v]++
	}
	med, n := 0, 0
	for i, c := range hist {
		n += c
		if 2*n >= len(g.Pix) {
			med = i
			break
		}
	}
	b := img.Bounds()
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := img.PixOffset(x, y)
			lum := 0.299*float64(img.Pix[i]) + 0.587*float64(img.Pix[i+1]) + 0.114*float64(img.Pix[i+2])
			w := clampF((float64(g.Pix[g.PixOffset(x, y)])-float64(med)-2)/8, 0, 1)
			out.Pix[out.PixOffset(x, y)] = uint8(255 - (255-lum)*w)
		}
	}
	stretch(out)
	return out
}

// stretch spreads the grey levels of img over the full range (the 1st
// and 99.5th percentiles become black and white).
func stretch(img *image.Gray) {
	var hist [256]int
	for _, v := range img.Pix {
		hist[v]++
	}
	lo, hi, n := 0, 255, 0
	for i, c := range hist {
		n += c
		if n*100 <= len(img.Pix) {
			lo = i
		}
		if n*1000 <= len(img.Pix)*995 {
			hi = i
		}
	}
	if hi <= lo {
		return
	}
	for i, v := range img.Pix {
		img.Pix[i] = uint8(clampF(255*float64(int(v)-lo)/float64(hi-lo), 0, 255))
	}
}

func clampF(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
