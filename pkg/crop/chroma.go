package crop

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// A document's paper or plastic seldom has the colour of what it lies on:
// a white sheet on an orange cloth, a green card on a dark wooden table
// differ in hue even where their brightness is the same, and a grey
// picture's edges and brightness masks miss them where the table is
// patterned or lit unevenly. chromaMask marks the pixels whose colour
// (chroma only: shading and glare change brightness, little the hue) lies
// far from that of the page's border, which is mostly the background.

// chromaGain scales the chroma distance (Cb and Cr, each 0 to 255) into
// the 8-bit map Otsu's threshold splits.
const chromaGain = 2

// chromaDistance is each pixel's chroma distance from the median chroma of
// the page's border band (a fortieth of the shorter side, at least 2
// pixels), scaled by chromaGain and capped at 255.
func chromaDistance(cb, cr gocv.Mat) (gocv.Mat, error) {
	w, h := cb.Cols(), cb.Rows()
	pb, err := cb.DataPtrUint8()
	if err != nil {
		return gocv.Mat{}, err
	}
	pr, err := cr.DataPtrUint8()
	if err != nil {
		return gocv.Mat{}, err
	}
	m := max(2, min(w, h)/40)
	var hb, hr [256]int
	n := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x == m && y >= m && y < h-m {
				x = w - m // skip the inside of the row
			}
			i := y*w + x
			hb[pb[i]]++
			hr[pr[i]]++
			n++
		}
	}
	b0, r0 := median256(&hb, n), median256(&hr, n)
	// The distance is a sum of one term a plane, each looked up.
	var db, dr [256]int
	for v := range 256 {
		db[v] = chromaGain * absDiff(v, b0)
		dr[v] = chromaGain * absDiff(v, r0)
	}
	out := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC1)
	po, err := out.DataPtrUint8()
	if err != nil {
		out.Close()
		return gocv.Mat{}, err
	}
	for i := range po {
		po[i] = uint8(min(db[pb[i]]+dr[pr[i]], 255))
	}
	return out, nil
}

func median256(h *[256]int, n int) int {
	acc := 0
	for v, c := range h {
		acc += c
		if 2*acc >= n {
			return v
		}
	}
	return 255
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// chromaMask is the pixels of chromaDistance above Otsu's threshold,
// opened and closed by k (specks of the background's pattern out, print
// on the document filled in).
func chromaMask(img image.Image, size image.Point, k gocv.Mat) (gocv.Mat, error) {
	cb, cr, err := cvimg.ChromaScaled(img, size)
	if err != nil {
		return gocv.Mat{}, err
	}
	defer cb.Close()
	defer cr.Close()
	d, err := chromaDistance(cb, cr)
	if err != nil {
		return gocv.Mat{}, err
	}
	defer d.Close()
	gocv.GaussianBlur(d, &d, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	bin := gocv.NewMat()
	gocv.Threshold(d, &bin, 0, 255, gocv.ThresholdBinary|gocv.ThresholdOtsu)
	gocv.MorphologyEx(bin, &bin, gocv.MorphOpen, k)
	gocv.MorphologyEx(bin, &bin, gocv.MorphClose, k)
	return bin, nil
}

// parallelSkew is how far a quadrilateral's corners lie from where each
// corner's three others put it (the fourth corner of their parallelogram),
// as a share of the square root of its area: 0 for a parallelogram, the
// same for every corner.
func parallelSkew(q geom.Quad) float64 {
	a := q.Area()
	if a <= 0 {
		return math.Inf(1)
	}
	r := q.Ring()
	x, y := r[3].X+r[1].X-r[2].X, r[3].Y+r[1].Y-r[2].Y
	return math.Hypot(x-r[0].X, y-r[0].Y) / math.Sqrt(a)
}
