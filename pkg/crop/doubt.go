package crop

import (
	"context"
	"image"
	"sort"

	"docsuite/pkg/geom"
)

// doubtful is a faint region of a look's interior map that no document
// found covers: a small card far from the camera, or one whose colours are
// close to the table's, that the network half sees at its 320 pixels.
type doubtful struct {
	box  image.Rectangle // in the look's letterbox pixels
	area int
}

// doubtfulRegions lists the regions of interior above DoubtThreshold, of
// at least doubtMinPixels network pixels, whose centre lies in no quad of
// found (in page pixels), largest first. A page taken whole (no document
// found and interior above Threshold over PageFill of it: a scan, a tight
// crop) has none: what lies inside it are its parts.
func doubtfulRegions(interior []float32, size int, lb letterboxed, page image.Rectangle, found []placedRegion, o NeuralOptions) []doubtful {
	weak := make([]bool, lb.w*lb.h)
	thr, sure := float32(o.DoubtThreshold), float32(o.Threshold)
	covered := 0
	for y := range lb.h {
		for x := range lb.w {
			v := interior[y*size+x]
			weak[y*lb.w+x] = v > thr
			if v > sure {
				covered++
			}
		}
	}
	if len(found) == 0 && float64(covered) >= o.PageFill*float64(lb.w*lb.h) {
		return nil
	}
	_, blobs := components(weak, lb.w, lb.h, doubtMinPixels, func(x, y int) float64 { return float64(interior[y*size+x]) })
	sx, sy := float64(page.Dx())/float64(lb.w), float64(page.Dy())/float64(lb.h)
	var out []doubtful
	for _, b := range blobs {
		x0, y0, x1, y1 := lb.w, lb.h, 0, 0
		for _, p := range b.pts {
			x0, y0 = min(x0, int(p.X)), min(y0, int(p.Y))
			x1, y1 = max(x1, int(p.X)), max(y1, int(p.Y))
		}
		cx, cy := float64(x0+x1)/2*sx, float64(y0+y1)/2*sy
		taken := false
		for _, f := range found {
			if inQuad(f.Quad, cx, cy) {
				taken = true
				break
			}
		}
		if !taken {
			out = append(out, doubtful{box: image.Rect(x0, y0, x1, y1), area: b.area})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].area > out[j].area })
	return out
}

// doubtFill and doubtScore are how well a document a closer look finds
// must fill its quadrilateral and how sure of its interior the network
// must be: seen this close, a coin is a round blob the network half
// takes for a card, and a fold of paper at the frame a page.
const (
	doubtFill  = 0.85
	doubtScore = 0.9
)

// doubtAspect is the smallest ratio of the longer side to the shorter of
// a document a closer look finds: no document of the catalogue is square
// (cards are 1.59, passport pages 1.42, A4 1.41), coins and buttons are.
const doubtAspect = 1.2

// doubtMinPixels is the smallest faint region, in network pixels, worth a
// closer look.
const doubtMinPixels = 40

// doubtWindow is the part of the page, in page pixels, a closer look at a
// doubtful region takes: a square around the region's box, DoubtMargin
// times its longer side wider on every side but no wider than a ZoomMin
// times closer look allows, shifted to lie inside the view; false when
// that leaves less than half the region's longer side around it.
func doubtWindow(d doubtful, size int, lb letterboxed, view image.Rectangle, o NeuralOptions) (image.Rectangle, bool) {
	long := float64(max(d.box.Dx(), d.box.Dy()))
	side := min(long*(1+2*o.DoubtMargin), float64(size)/max(o.ZoomMin, 1))
	if side < 2*long {
		return image.Rectangle{}, false
	}
	cx, cy := float64(d.box.Min.X+d.box.Max.X)/2, float64(d.box.Min.Y+d.box.Max.Y)/2
	fx0 := min(max(0, cx-side/2), max(0, float64(lb.w)-side))
	fy0 := min(max(0, cy-side/2), max(0, float64(lb.h)-side))
	fx1, fy1 := min(float64(lb.w), fx0+side), min(float64(lb.h), fy0+side)
	sx, sy := float64(view.Dx())/float64(lb.w), float64(view.Dy())/float64(lb.h)
	r := image.Rect(view.Min.X+int(fx0*sx), view.Min.Y+int(fy0*sy), view.Min.X+int(fx1*sx+0.5), view.Min.Y+int(fy1*sy+0.5)).Intersect(view)
	if r.Dx() < minZoomSide || r.Dy() < minZoomSide {
		return image.Rectangle{}, false
	}
	return r, true
}

// lookCloser takes up to DoubtLooks closer looks at the doubtful regions
// of the first look, largest first, and adds the documents they find
// whole (clear of the window's frame: one cut by it would be a part),
// clean (doubtFill, doubtScore, doubtAspect) and where no document was
// found yet, up to MaxDocs in all.
func (n *Neural) lookCloser(ctx context.Context, img image.Image, interior []float32, lb letterboxed, found []placedRegion) ([]placedRegion, error) {
	si, ok := img.(subImager)
	if !ok || n.opts.DoubtLooks <= 0 {
		return found, nil
	}
	b := img.Bounds()
	looks := 0
	// Only a clean document is taken from a closer look (doubtFill), so
	// its regions are not cut along chords, the costliest way to part
	// documents that touch.
	o := n.opts
	o.NoChords = true
	var seen []image.Rectangle
	for _, d := range doubtfulRegions(interior, n.size, lb, b, found, n.opts) {
		if looks >= n.opts.DoubtLooks || len(found) >= n.opts.MaxDocs {
			break
		}
		win, ok := doubtWindow(d, n.size, lb, b, n.opts)
		if !ok || insideAny(win, seen) {
			continue
		}
		looks++
		seen = append(seen, win)
		sub := si.SubImage(win)
		zr, zlb, _, err := n.look(ctx, sub, o)
		if err != nil {
			return nil, err
		}
		for _, r := range zr {
			if !clearOfFrame(r.quad, zlb.w, zlb.h) || r.fill < doubtFill || r.score < doubtScore || aspect(r.quad) < doubtAspect {
				continue
			}
			p := placed([]region{r}, zlb, sub.Bounds(), b)[0]
			if !overlapsAny(p.Quad, found) {
				found = append(found, p)
			}
		}
	}
	return found, nil
}

// insideAny reports whether r's centre lies in one of the rectangles.
func insideAny(r image.Rectangle, rs []image.Rectangle) bool {
	c := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	for _, o := range rs {
		if c.In(o) {
			return true
		}
	}
	return false
}

// inQuad reports whether (x, y) lies inside the convex quad q.
func inQuad(q geom.Quad, x, y float64) bool {
	r := q.Ring()
	c := geom.Point{X: x, Y: y}
	pos, neg := false, false
	for i := range r {
		v := geom.Cross(r[i], r[(i+1)%4], c)
		pos, neg = pos || v > 0, neg || v < 0
	}
	return !(pos && neg)
}

// overlapsAny reports whether q shares more than a fifth of the smaller
// one's area with a document already found.
func overlapsAny(q geom.Quad, found []placedRegion) bool {
	for _, f := range found {
		if geom.Overlap(q, f.Quad) > 0.2*min(q.Area(), f.Quad.Area()) {
			return true
		}
	}
	return false
}
