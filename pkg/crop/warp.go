package crop

import (
	"errors"
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// MaxWarpSide caps the longer side of a warped crop, in pixels.
const MaxWarpSide = 8192

// ErrDegenerate is returned for quads that enclose no area.
var ErrDegenerate = errors.New("crop: degenerate quad")

// Warp cuts the document outlined by q out of img and corrects its
// perspective. The result is an *image.RGBA whose aspect ratio is the
// document's true one (estimated from the perspective of the quad, see
// AspectRatio) and whose size matches the quad's longer sides. The crop's
// top-left is q's TL corner.
func Warp(img image.Image, q geom.Quad) (image.Image, error) {
	w, h, err := OutputSize(q)
	if err != nil {
		return nil, err
	}
	// Convert only the part of the page under the quad.
	b := img.Bounds()
	box := image.Rect(int(math.Floor(minOf(q, true)))-1, int(math.Floor(minOf(q, false)))-1,
		int(math.Ceil(maxOf(q, true)))+2, int(math.Ceil(maxOf(q, false)))+2).Intersect(b)
	if box.Empty() {
		return nil, fmt.Errorf("crop: quad outside the page: %w", ErrDegenerate)
	}
	src := img
	if si, ok := img.(subImager); ok {
		src = si.SubImage(box)
	} else {
		box = b
	}
	mat, err := cvimg.BGR(src)
	if err != nil {
		return nil, fmt.Errorf("crop: convert page: %w", err)
	}
	// The page's part is closed as soon as it is warped (closing it again
	// is harmless), so that the warped Mat and the crop made of it are
	// not held beside it: two of the three at once, not all three.
	defer mat.Close()
	from := make([]gocv.Point2f, 4)
	for i, p := range q {
		from[i] = gocv.Point2f{X: float32(p.X - float64(box.Min.X)), Y: float32(p.Y - float64(box.Min.Y))}
	}
	fw, fh := float32(w), float32(h)
	to := []gocv.Point2f{{X: 0, Y: 0}, {X: fw, Y: 0}, {X: 0, Y: fh}, {X: fw, Y: fh}}
	fv, tv := gocv.NewPoint2fVectorFromPoints(from), gocv.NewPoint2fVectorFromPoints(to)
	defer fv.Close()
	defer tv.Close()
	m := gocv.GetPerspectiveTransform2f(fv, tv)
	defer m.Close()
	out := gocv.NewMat()
	defer out.Close()
	gocv.WarpPerspectiveWithParams(mat, &out, m, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderReplicate, colorWhite)
	mat.Close()
	res, err := cvimg.ToImage(out)
	if err != nil {
		return nil, fmt.Errorf("crop: convert crop: %w", err)
	}
	return res, nil
}

// OutputSize is the pixel size of the warped crop of q: the true aspect
// ratio with the longer of the quad's measured sides kept.
func OutputSize(q geom.Quad) (int, int, error) {
	top, bottom := dist(q[geom.TL], q[geom.TR]), dist(q[geom.BL], q[geom.BR])
	left, right := dist(q[geom.TL], q[geom.BL]), dist(q[geom.TR], q[geom.BR])
	ratio := AspectRatio(q)
	if q.Area() < 4 || ratio <= 0 || math.IsNaN(ratio) {
		return 0, 0, ErrDegenerate
	}
	w := math.Max(top, bottom)
	h := w / ratio
	if hh := math.Max(left, right); h < hh {
		h = hh
		w = h * ratio
	}
	if s := math.Max(w, h) / MaxWarpSide; s > 1 {
		w, h = w/s, h/s
	}
	return max(1, int(math.Round(w))), max(1, int(math.Round(h))), nil
}

// AspectRatio estimates the width/height ratio of the rectangle seen in
// perspective as q (Zhang and He, "Whiteboard scanning and image
// enhancement", 2007), assuming square pixels and the principal point at
// the quad's centre. When the sides are (nearly) parallel, or the estimate
// of the focal length is not real, it falls back to the ratio of the mean
// side lengths.
func AspectRatio(q geom.Quad) float64 {
	w, h := q.Size()
	fallback := w / h
	var cx, cy float64
	for _, p := range q {
		cx += p.X / 4
		cy += p.Y / 4
	}
	hom := func(p geom.Point) [3]float64 { return [3]float64{p.X - cx, p.Y - cy, 1} }
	m1, m2, m3, m4 := hom(q[geom.TL]), hom(q[geom.TR]), hom(q[geom.BL]), hom(q[geom.BR])
	c14 := cross3(m1, m4)
	k2 := dot3(c14, m3) / dot3(cross3(m2, m4), m3)
	k3 := dot3(c14, m2) / dot3(cross3(m3, m4), m2)
	n2 := [3]float64{k2*m2[0] - m1[0], k2*m2[1] - m1[1], k2*m2[2] - m1[2]}
	n3 := [3]float64{k3*m3[0] - m1[0], k3*m3[1] - m1[1], k3*m3[2] - m1[2]}
	if math.Abs(n2[2]) < 1e-6 || math.Abs(n3[2]) < 1e-6 {
		return fallback
	}
	f2 := -(n2[0]*n3[0] + n2[1]*n3[1]) / (n2[2] * n3[2])
	if !(f2 > 0) {
		return fallback
	}
	num := n2[0]*n2[0] + n2[1]*n2[1] + f2*n2[2]*n2[2]
	den := n3[0]*n3[0] + n3[1]*n3[1] + f2*n3[2]*n3[2]
	r := math.Sqrt(num / den)
	// A focal length far from a camera's (very strong perspective, or
	// noise on a nearly affine quad) makes the estimate unstable.
	if f := math.Sqrt(f2); f < 0.3*math.Max(w, h) || math.IsNaN(r) || r <= 0 {
		return fallback
	}
	// What the perspective tells is in how far the opposite sides are from
	// parallel: a quad within a fraction of a degree of a parallelogram
	// (a spread photographed square on, a card lying flat, a corner a
	// pixel or two off) says next to nothing about the aspect, and the
	// estimate is then noise (a passport spread came out 35 % too tall).
	// The correction is bounded by three times the larger angle between
	// opposite sides, plus 2 %.
	bound := 3*convergence(q) + 0.02
	return fallback * math.Exp(math.Max(-bound, math.Min(bound, math.Log(r/fallback))))
}

// convergence is the larger of the angles, in radians, between q's
// opposite sides: 0 for a parallelogram.
func convergence(q geom.Quad) float64 {
	dir := func(a, b geom.Point) float64 { return math.Atan2(b.Y-a.Y, b.X-a.X) }
	apart := func(x, y float64) float64 {
		d := math.Mod(math.Abs(x-y), math.Pi)
		return math.Min(d, math.Pi-d)
	}
	return math.Max(apart(dir(q[geom.TL], q[geom.TR]), dir(q[geom.BL], q[geom.BR])),
		apart(dir(q[geom.TL], q[geom.BL]), dir(q[geom.TR], q[geom.BR])))
}

func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func dist(a, b geom.Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

func minOf(q geom.Quad, x bool) float64 {
	m := math.Inf(1)
	for _, p := range q {
		m = math.Min(m, pick(p, x))
	}
	return m
}

func maxOf(q geom.Quad, x bool) float64 {
	m := math.Inf(-1)
	for _, p := range q {
		m = math.Max(m, pick(p, x))
	}
	return m
}

func pick(p geom.Point, x bool) float64 {
	if x {
		return p.X
	}
	return p.Y
}
