// Package copymove finds a region of an image pasted elsewhere in the same
// image (copy-move forgery): ORB keypoints are matched against the image's
// own keypoints, the displacement vectors of the matches are clustered, and
// a cluster is kept only when it is verified at the pixel level.
//
// Genuine documents repeat themselves (the same letter many times, the '<'
// fillers of an MRZ, guilloche and security patterns), so a cluster counts
// only when it has many matches, its two regions are large enough in both
// directions and do not overlap, the displacement is not one step of a
// periodic pattern (no cluster of comparable size at twice or half the
// displacement) nor one of many displacements its keypoints match at (a
// barcode), and the two regions are nearly equal pixel by pixel
// wherever they hold texture (a printed repeat photographed twice differs
// by sensor noise and blur; a digital copy does not).
package copymove

import (
	"context"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
)

// Options tune the detector; the zero value uses the defaults.
type Options struct {
	// MaxSide bounds the longer side the image is analysed at (default 1600).
	MaxSide int
	// Features is the number of ORB keypoints (default 6000).
	Features int
	// MinMatches is the smallest verified cluster (default 20).
	MinMatches int
	// MinSide is the smallest side of a copied region in the input's
	// pixels (default 48): a word or a number printed twice is common on
	// genuine documents, so copies of a single line of text are not
	// reported.
	MinSide int
}

func (o *Options) defaults() {
	if o.MaxSide <= 0 {
		o.MaxSide = 1600
	}
	if o.Features <= 0 {
		o.Features = 6000
	}
	if o.MinMatches <= 0 {
		o.MinMatches = 20
	}
	if o.MinSide <= 0 {
		o.MinSide = 48
	}
}

// Region is one copied region pair in the input image's pixels. Which of
// the two is the copy cannot be told from the pixels.
type Region struct {
	A, B image.Rectangle
	// Matches is the number of keypoint matches with this displacement.
	Matches int
	// Similar is the share of textured pixels of A that equal the pixel
	// at the same place in B within a small tolerance (0..1).
	Similar float64
	// Strength is the detector's statistic: log(1 + Matches) * Similar.
	Strength float64
}

// match is one keypoint pair with its displacement from p to q.
type match struct {
	p, q   image.Point
	dx, dy int
}

// Detect returns the verified copied regions of img, strongest first.
func Detect(ctx context.Context, img image.Image, opt Options) ([]Region, error) {
	opt.defaults()
	gray, scale, err := cvimg.GrayScaled(img, opt.MaxSide)
	if err != nil {
		return nil, fmt.Errorf("copymove: %w", err)
	}
	defer gray.Close()
	w, h := gray.Cols(), gray.Rows()
	if w < 64 || h < 64 {
		return nil, nil
	}
	// verification at full resolution, up to verifySide pixels
	full, fscale, err := cvimg.GrayScaled(img, verifySide)
	if err != nil {
		return nil, fmt.Errorf("copymove: %w", err)
	}
	defer full.Close()
	fw, fh, fpix := full.Cols(), full.Rows(), full.ToBytes()
	matches, err := selfMatches(gray, opt.Features)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Region
	used := map[[2]int]bool{}
	for _, c := range clusters(matches, opt.MinMatches) {
		if used[c.key] {
			continue
		}
		used[c.key] = true
		if periodic(matches, c) {
			continue
		}
		a, b := c.boxes(w, h)
		if a.Overlaps(b) || !dominant(matches, c, a, b) {
			continue
		}
		// verify at full resolution, refining the displacement there
		s := scale / fscale // analysed pixels to verified pixels
		fa0 := scaleRect(a, s, image.Rect(0, 0, fw, fh))
		d0 := image.Pt(int(math.Round(c.dx*s)), int(math.Round(c.dy*s)))
		sim, fa, fb := 0.0, fa0, fa0
		r := int(math.Ceil(s))
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				d := d0.Add(image.Pt(dx, dy))
				ra := fa0.Intersect(image.Rect(0, 0, fw, fh).Sub(d))
				if s := similarity(fpix, fw, ra, ra.Add(d)); s > sim {
					sim, fa, fb = s, ra, ra.Add(d)
				}
			}
		}
		fa, fb = scaleRect(fa, fscale, image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy())), scaleRect(fb, fscale, image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
		if sim < minSimilar || fa.Dx() < opt.MinSide || fa.Dy() < opt.MinSide {
			continue
		}
		o := img.Bounds().Min
		out = append(out, Region{A: fa.Add(o), B: fb.Add(o),
			Matches: len(c.members), Similar: sim, Strength: math.Log1p(float64(len(c.members))) * sim})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Strength > out[j].Strength })
	// one pair found by two neighbouring displacement bins is one region
	kept := out[:0]
	for _, r := range out {
		dup := false
		for _, k := range kept {
			if (overlap(r.A, k.A) || overlap(r.A, k.B)) && (overlap(r.B, k.B) || overlap(r.B, k.A)) {
				dup = true
				break
			}
		}
		if !dup {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

// overlap reports whether two boxes share at least half of the smaller.
func overlap(a, b image.Rectangle) bool {
	in := a.Intersect(b)
	small := min(a.Dx()*a.Dy(), b.Dx()*b.Dy())
	return !in.Empty() && 2*in.Dx()*in.Dy() >= small
}

// selfMatches matches every ORB keypoint with its nearest other keypoint
// and keeps distinctive pairs (ratio test against the next candidate) that
// lie apart.
func selfMatches(gray gocv.Mat, features int) ([]match, error) {
	orb := gocv.NewORBWithParams(features, 1.2, 3, 15, 0, 2, gocv.ORBScoreTypeHarris, 15, 10)
	defer orb.Close()
	mask := gocv.NewMat()
	defer mask.Close()
	kps, desc := orb.DetectAndCompute(gray, mask)
	defer desc.Close()
	if len(kps) < 8 || desc.Empty() {
		return nil, nil
	}
	bf := gocv.NewBFMatcherWithParams(gocv.NormHamming, false)
	defer bf.Close()
	knn := bf.KnnMatch(desc, desc, 6)
	var out []match
	for _, ms := range knn {
		if len(ms) == 0 {
			continue
		}
		p := kps[ms[0].QueryIdx]
		a := image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
		// candidates away from the keypoint itself (ORB finds one corner at
		// several pyramid levels)
		var far []gocv.DMatch
		for _, m := range ms {
			q := kps[m.TrainIdx]
			if math.Hypot(q.X-p.X, q.Y-p.Y) >= minDisp {
				far = append(far, m)
			}
		}
		if len(far) == 0 || far[0].Distance > 32 {
			continue
		}
		if len(far) > 1 && far[0].Distance > 0.7*far[1].Distance {
			continue
		}
		q := kps[far[0].TrainIdx]
		b := image.Pt(int(math.Round(q.X)), int(math.Round(q.Y)))
		d := b.Sub(a)
		if d.X < 0 || (d.X == 0 && d.Y < 0) {
			a, b, d = b, a, a.Sub(b) // one direction per pair
		}
		out = append(out, match{p: a, q: b, dx: d.X, dy: d.Y})
	}
	return dedupe(out), nil
}

// dedupe drops the second copy of pairs found from both ends.
func dedupe(ms []match) []match {
	seen := map[[4]int]bool{}
	out := ms[:0]
	for _, m := range ms {
		k := [4]int{m.p.X, m.p.Y, m.q.X, m.q.Y}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, m)
	}
	return out
}

// cluster is a set of matches sharing one displacement.
type cluster struct {
	key     [2]int // displacement bin
	dx, dy  float64
	members []match
}

const binSide = 4

// verifySide bounds the longer side of the image copies are verified on.
const verifySide = 4000

// minSimilar is the smallest share of equal textured pixels of a copy.
const minSimilar = 0.8

// minDisp is the shortest displacement considered, in analysed pixels.
const minDisp = 16

// clusters groups matches by displacement (bins of binSide pixels, merged
// with their neighbours) and returns those of at least minN, largest first.
func clusters(ms []match, minN int) []cluster {
	bins := map[[2]int]int{}
	for _, m := range ms {
		bins[binOf(m.dx, m.dy)]++
	}
	type kv struct {
		k [2]int
		n int
	}
	var peaks []kv
	for k := range bins {
		n := 0
		for i := -1; i <= 1; i++ {
			for j := -1; j <= 1; j++ {
				n += bins[[2]int{k[0] + i, k[1] + j}]
			}
		}
		if n >= minN {
			peaks = append(peaks, kv{k, n})
		}
	}
	sort.Slice(peaks, func(i, j int) bool {
		if peaks[i].n != peaks[j].n {
			return peaks[i].n > peaks[j].n
		}
		return peaks[i].k[0] < peaks[j].k[0] || peaks[i].k[0] == peaks[j].k[0] && peaks[i].k[1] < peaks[j].k[1]
	})
	var out []cluster
	taken := map[[2]int]bool{}
	for _, p := range peaks {
		if taken[p.k] {
			continue
		}
		c := cluster{key: p.k}
		for _, m := range ms {
			b := binOf(m.dx, m.dy)
			if abs(b[0]-p.k[0]) <= 1 && abs(b[1]-p.k[1]) <= 1 {
				c.members = append(c.members, m)
			}
		}
		// keep the members within 3 pixels of the cluster's median displacement
		mdx, mdy := median(c.members, func(m match) int { return m.dx }), median(c.members, func(m match) int { return m.dy })
		kept := c.members[:0]
		for _, m := range c.members {
			if abs(m.dx-mdx) <= 3 && abs(m.dy-mdy) <= 3 {
				kept = append(kept, m)
			}
		}
		c.members, c.dx, c.dy = largestGroup(kept), float64(mdx), float64(mdy)
		if len(c.members) < minN {
			continue
		}
		for i := -1; i <= 1; i++ {
			for j := -1; j <= 1; j++ {
				taken[[2]int{p.k[0] + i, p.k[1] + j}] = true
			}
		}
		out = append(out, c)
	}
	return out
}

// linkDist is the largest gap between two matches of one copied region,
// in analysed pixels.
const linkDist = 80

// largestGroup returns the biggest spatially connected group of matches
// (single linkage at linkDist): matches of one displacement spread over the
// whole image are chance, a copied region is compact.
func largestGroup(ms []match) []match {
	n := len(ms)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := ms[i].p.X-ms[j].p.X, ms[i].p.Y-ms[j].p.Y
			if dx*dx+dy*dy <= linkDist*linkDist {
				parent[find(i)] = find(j)
			}
		}
	}
	size := map[int]int{}
	best, bestN := -1, 0
	for i := range ms {
		r := find(i)
		size[r]++
		if size[r] > bestN || size[r] == bestN && r < best {
			best, bestN = r, size[r]
		}
	}
	var out []match
	for i, m := range ms {
		if find(i) == best {
			out = append(out, m)
		}
	}
	return out
}

// periodic reports whether the cluster's displacement is one step of a
// repeated pattern: matches of comparable number at twice or half its
// displacement.
func periodic(ms []match, c cluster) bool {
	count := func(dx, dy float64) int {
		n := 0
		for _, m := range ms {
			if math.Abs(float64(m.dx)-dx) <= 4 && math.Abs(float64(m.dy)-dy) <= 4 {
				n++
			}
		}
		return n
	}
	ref := len(c.members)
	for _, f := range []float64{2, 0.5, 3} {
		if n := count(c.dx*f, c.dy*f); n*4 >= ref {
			return true
		}
	}
	return false
}

// dominant reports whether the cluster holds most of the matches that
// touch its two regions. A copied region's keypoints match their copy; a
// repeated texture (a barcode, a guilloche) matches itself at many
// displacements.
func dominant(ms []match, c cluster, a, b image.Rectangle) bool {
	touching := 0
	for _, m := range ms {
		if m.p.In(a) || m.q.In(a) || m.p.In(b) || m.q.In(b) {
			touching++
		}
	}
	return 2*len(c.members) >= touching
}

// boxes returns the bounding boxes of the cluster's first and second
// points, padded by 8 pixels and cut to the image.
func (c cluster) boxes(w, h int) (a, b image.Rectangle) {
	r := image.Rectangle{Min: image.Pt(math.MaxInt32, math.MaxInt32), Max: image.Pt(math.MinInt32, math.MinInt32)}
	for _, m := range c.members {
		r.Min.X, r.Min.Y = min(r.Min.X, m.p.X), min(r.Min.Y, m.p.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, m.p.X+1), max(r.Max.Y, m.p.Y+1)
	}
	r = r.Inset(-8)
	d := image.Pt(int(c.dx), int(c.dy))
	bounds := image.Rect(0, 0, w, h)
	// keep both boxes inside the image
	a = r.Intersect(bounds).Intersect(bounds.Sub(d))
	return a, a.Add(d)
}

// similarity is the share of textured pixels of a (local gradient above a
// floor) whose value equals b's within a tolerance of 12 grey levels.
func similarity(pix []byte, w int, a, b image.Rectangle) float64 {
	d := b.Min.Sub(a.Min)
	textured, equal := 0, 0
	for y := a.Min.Y + 1; y < a.Max.Y-1; y++ {
		for x := a.Min.X + 1; x < a.Max.X-1; x++ {
			i := y*w + x
			g := abs(int(pix[i+1])-int(pix[i-1])) + abs(int(pix[i+w])-int(pix[i-w]))
			if g < 24 {
				continue
			}
			textured++
			j := (y+d.Y)*w + x + d.X
			if abs(int(pix[i])-int(pix[j])) <= 12 {
				equal++
			}
		}
	}
	if textured < 64 {
		return 0
	}
	return float64(equal) / float64(textured)
}

func scaleRect(r image.Rectangle, s float64, bounds image.Rectangle) image.Rectangle {
	out := image.Rect(int(float64(r.Min.X)*s), int(float64(r.Min.Y)*s), int(math.Ceil(float64(r.Max.X)*s)), int(math.Ceil(float64(r.Max.Y)*s)))
	return out.Add(bounds.Min).Intersect(bounds)
}

func binOf(dx, dy int) [2]int {
	return [2]int{int(math.Floor(float64(dx) / binSide)), int(math.Floor(float64(dy) / binSide))}
}

func median(ms []match, f func(match) int) int {
	v := make([]int, len(ms))
	for i, m := range ms {
		v[i] = f(m)
	}
	sort.Ints(v)
	return v[len(v)/2]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
