// Package crop finds documents on a page and cuts them out with
// perspective correction. Simple is the classical (OpenCV contour) cropper:
// it works on a downscaled luma image, proposes quadrilaterals from edge,
// brightness and colour maps, keeps those whose four sides lie on real,
// consistent edges, and refines the corners at full resolution.
package crop

import (
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// SimpleOptions tunes the simple cropper. Zero fields take the defaults.
type SimpleOptions struct {
	// DetectSide is the longer side, in pixels, of the image detection runs
	// on (default 800).
	DetectSide int
	// MinArea is the smallest document area as a fraction of the page
	// (default 0.01).
	MinArea float64
	// MaxArea is the largest document area as a fraction of the page; a quad
	// covering more is the page itself (default 0.97).
	MaxArea float64
	// MaxAspect is the largest ratio of a document's long side to its short
	// side (default 5, long receipts).
	MaxAspect float64
	// MinSupport is the smallest mean fraction of a quad's outline that must
	// lie on a consistent edge (default 0.6).
	MinSupport float64
	// MaxDocs caps the number of documents returned (default 8).
	MaxDocs int
}

func (o SimpleOptions) withDefaults() SimpleOptions {
	if o.DetectSide <= 0 {
		o.DetectSide = 800
	}
	if o.MinArea <= 0 {
		o.MinArea = 0.01
	}
	if o.MaxArea <= 0 {
		o.MaxArea = 0.97
	}
	if o.MaxAspect <= 0 {
		o.MaxAspect = 5
	}
	if o.MinSupport <= 0 {
		o.MinSupport = 0.6
	}
	if o.MaxDocs <= 0 {
		o.MaxDocs = 8
	}
	return o
}

// Found is one document found on a page.
type Found struct {
	// Quad is the outline in page pixels, corners TL, TR, BL, BR as the
	// document lies in the image (see OrderCorners).
	Quad geom.Quad
	// Score in [0, 1] is the fraction of the outline supported by edges.
	Score float64
}

// Simple finds the documents on a page. It returns them ordered by score,
// or an empty slice when nothing document-like is found (the caller then
// treats the whole page as one item).
func Simple(img image.Image, opts SimpleOptions) ([]Found, error) {
	opts = opts.withDefaults()
	b := img.Bounds()
	if b.Dx() < 16 || b.Dy() < 16 {
		return nil, nil
	}
	small, scale, err := cvimg.GrayScaled(img, opts.DetectSide)
	if err != nil {
		return nil, fmt.Errorf("crop: downscale page: %w", err)
	}
	defer small.Close()
	blur := gocv.NewMat()
	defer blur.Close()
	gocv.GaussianBlur(small, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	pix, err := blur.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("crop: read blurred page: %w", err)
	}
	lum := plane{pix: pix, w: blur.Cols(), h: blur.Rows()}

	quads, edges := candidates(blur, opts)
	defer edges.Close()
	cq, err := chromaCandidates(img, image.Pt(blur.Cols(), blur.Rows()), opts)
	if err != nil {
		return nil, err
	}
	quads = append(quads, cq...)
	kept := selectQuads(quads, lum, blur, edges, opts)
	out := make([]Found, 0, len(kept))
	lumFull := lumaOf(img)
	for _, c := range kept {
		q := scaleQuad(c.quad, scale)
		q = refine(lumFull, q, scale, b.Dx(), b.Dy())
		for i := range q {
			q[i].X += float64(b.Min.X)
			q[i].Y += float64(b.Min.Y)
		}
		out = append(out, Found{Quad: q, Score: c.score})
	}
	return out, nil
}

type candidate struct {
	quad  geom.Quad
	score float64
	area  float64
}

// candidates proposes quads (in small-image pixels) from three maps: closed
// Canny edges (regions enclosed by edges, including holes), and the Otsu
// bright and dark masks.
// It also returns the raw Canny edge map.
func candidates(blur gocv.Mat, opts SimpleOptions) ([]geom.Quad, gocv.Mat) {
	w, h := blur.Cols(), blur.Rows()
	minArea := opts.MinArea * float64(w*h)
	var quads []geom.Quad
	add := func(bin gocv.Mat, mode gocv.RetrievalMode) {
		quads = append(quads, contourQuads(bin, mode, minArea)...)
	}
	k3 := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer k3.Close()
	k7 := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(maskKernel, maskKernel))
	defer k7.Close()

	edges := gocv.NewMat()
	defer edges.Close()
	lo, hi := cannyThresholds(blur)
	gocv.Canny(blur, &edges, lo, hi)
	raw := edges.Clone()
	gocv.Dilate(edges, &edges, k3)
	// A frame line closes the outline of documents cut by the image edge.
	gocv.Rectangle(&edges, image.Rect(0, 0, w, h), colorWhite, 1)
	add(edges, gocv.RetrievalCComp)

	bright := gocv.NewMat()
	defer bright.Close()
	gocv.Threshold(blur, &bright, 0, 255, gocv.ThresholdBinary|gocv.ThresholdOtsu)
	for _, inv := range []bool{false, true} {
		m := bright.Clone()
		if inv {
			gocv.BitwiseNot(m, &m)
		}
		gocv.MorphologyEx(m, &m, gocv.MorphOpen, k7)
		gocv.MorphologyEx(m, &m, gocv.MorphClose, k7)
		add(m, gocv.RetrievalExternal)
		m.Close()
	}
	return quads, raw
}

// maskKernel is the side of the square kernel the brightness and colour
// masks are opened and closed with (specks of a pattern out, print on a
// document filled in).
const maskKernel = 7

// contourQuads returns the quads (quadFromContour) of the contours of bin
// enclosing at least minArea pixels.
func contourQuads(bin gocv.Mat, mode gocv.RetrievalMode, minArea float64) []geom.Quad {
	cs := gocv.FindContours(bin, mode, gocv.ChainApproxSimple)
	defer cs.Close()
	var quads []geom.Quad
	for i := 0; i < cs.Size(); i++ {
		c := cs.At(i)
		if gocv.ContourArea(c) < minArea {
			continue
		}
		if q, ok := quadFromContour(c); ok {
			quads = append(quads, q)
		}
	}
	return quads
}

// chromaCandidates proposes quads (in small-image pixels, size the small
// image's) from the colour mask (chromaMask): documents whose colour
// differs from the background's where their brightness does not.
func chromaCandidates(img image.Image, size image.Point, opts SimpleOptions) ([]geom.Quad, error) {
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(maskKernel, maskKernel))
	defer k.Close()
	bin, err := chromaMask(img, size, k)
	if err != nil {
		return nil, fmt.Errorf("crop: colour mask: %w", err)
	}
	defer bin.Close()
	return contourQuads(bin, gocv.RetrievalExternal, opts.MinArea*float64(size.X*size.Y)), nil
}

// cannyThresholds derives Canny thresholds from the median luma.
func cannyThresholds(m gocv.Mat) (float32, float32) {
	pix, err := m.DataPtrUint8()
	if err != nil || len(pix) == 0 {
		return 30, 90
	}
	var hist [256]int
	for i := 0; i < len(pix); i += 7 {
		hist[pix[i]]++
	}
	n, acc, med := (len(pix)+6)/7, 0, 0
	for v, c := range hist {
		acc += c
		if acc*2 >= n {
			med = v
			break
		}
	}
	lo := math.Max(20, 0.33*float64(med))
	return float32(lo), float32(math.Min(2.5*lo, 200))
}

// quadFromContour simplifies a contour to four corners: the polygon
// approximation of its convex hull when that has four corners, otherwise
// its minimum-area rectangle when the hull fills it.
func quadFromContour(c gocv.PointVector) (geom.Quad, bool) {
	hullIdx := gocv.NewMat()
	defer hullIdx.Close()
	gocv.ConvexHull(c, &hullIdx, false, false)
	pts := c.ToPoints()
	hull := make([]image.Point, 0, hullIdx.Rows())
	for i := 0; i < hullIdx.Rows(); i++ {
		hull = append(hull, pts[hullIdx.GetIntAt(i, 0)])
	}
	hv := gocv.NewPointVectorFromPoints(hull)
	defer hv.Close()
	perim := gocv.ArcLength(hv, true)
	hullArea := gocv.ContourArea(hv)
	for _, eps := range []float64{0.02, 0.04} {
		ap := gocv.ApproxPolyDP(hv, eps*perim, true)
		p := ap.ToPoints()
		ap.Close()
		if len(p) == 4 {
			var arr [4]geom.Point
			for i, pt := range p {
				arr[i] = geom.Point{X: float64(pt.X), Y: float64(pt.Y)}
			}
			return OrderCorners(arr), true
		}
	}
	rr := gocv.MinAreaRect(hv)
	if len(rr.Points) != 4 || float64(rr.Width*rr.Height) <= 0 || hullArea/float64(rr.Width*rr.Height) < 0.9 {
		return geom.Quad{}, false
	}
	var arr [4]geom.Point
	for i, pt := range rr.Points {
		arr[i] = geom.Point{X: float64(pt.X), Y: float64(pt.Y)}
	}
	return OrderCorners(arr), true
}

// selectQuads filters candidates by shape and edge support and removes
// duplicates and nested quads, best score first. A quad whose surround is
// as busy as a printed page (ringOf) is a box printed on a larger
// document, unless its four sides are outlined (litSupport) and it is much
// lighter than that surround (litLead grey levels): a sheet or a card on a
// patterned cloth or a keyboard, whose surround is busy too.
func selectQuads(quads []geom.Quad, lum plane, blur, edges gocv.Mat, opts SimpleOptions) []candidate {
	frame := float64(lum.w * lum.h)
	var cands []candidate
	for _, q := range quads {
		a := q.Area()
		if a < opts.MinArea*frame || a > opts.MaxArea*frame {
			continue
		}
		if !plausible(q, opts.MaxAspect) {
			continue
		}
		s, ok := support(lum, q)
		if !ok || s < opts.MinSupport {
			continue
		}
		if r := ringOf(blur, edges, q); steep(q, s, r) || r.busy && (s < litSupport || r.lighter < litLead) {
			continue
		}
		cands = append(cands, candidate{quad: q, score: s, area: a})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if d := cands[i].score - cands[j].score; math.Abs(d) > 0.03 {
			return d > 0
		}
		return cands[i].area > cands[j].area
	})
	var kept []candidate
	for _, c := range cands {
		dup := false
		for _, k := range kept {
			inter := geom.Overlap(c.quad, k.quad)
			// Same document, or one inside the other (a photo on an ID
			// card, a card on a sheet): keep the better one only.
			if inter > 0.8*math.Min(c.area, k.area) || inter > 0.5*(c.area+k.area-inter) {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, c)
		}
		if len(kept) == opts.MaxDocs {
			break
		}
	}
	return kept
}

// litSupport and litLead are how well outlined and how much lighter than
// its busy surround a quad must be to be a document on a pattern (see
// selectQuads; chosen on the tuning set, seed 4404: 0.8 and 60 found 111 of
// its 179 documents where rejecting every such quad found 87; figures in
// docs/accuracy-cropper.md, fifteenth pass).
const (
	litSupport = 0.8
	litLead    = 60
)

// A photographed rectangle is close to a parallelogram: the factory's
// documents stay under a parallelSkew of 0.12, and a sheet seen at a steep
// angle, its far side three quarters of its near one, comes to about 0.35.
// A person's head and shoulders on a passport photo, which the brightness
// and colour masks propose, make a trapezoid of 0.4 to 0.5, some of them
// outlined all round. A quad skewed more than steepSkew must be outlined
// along steepSupport of its sides and be litLead lighter than its surround
// (a sheet on a table; a photo is no lighter than the page it is printed
// on); none may be skewed more than maxSkew.
const (
	steepSkew    = 0.3
	steepSupport = 0.9
	maxSkew      = 0.5
)

// plausible rejects quads that cannot be a photographed rectangle: concave,
// with extreme angles, far from a parallelogram, or too elongated.
func plausible(q geom.Quad, maxAspect float64) bool {
	ang, convex := interiorAngles(q)
	if !convex {
		return false
	}
	for _, a := range ang {
		if a < 45 || a > 135 {
			return false
		}
	}
	if w, h := q.Size(); w < 12 || h < 12 {
		return false
	}
	return parallelSkew(q) <= maxSkew && aspect(q) <= maxAspect
}

// steep reports whether q is skewed too far from a parallelogram for its
// outline's support s and how much lighter than its surround it is (see
// steepSkew).
func steep(q geom.Quad, s float64, r ring) bool {
	return parallelSkew(q) > steepSkew && (s < steepSupport || r.lighter < litLead)
}
