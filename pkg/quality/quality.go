// Package quality measures the image quality of a document crop (exposure,
// sharpness, size) and turns the measurements into the API's flags using
// the request's thresholds. The score definitions are documented in
// docs/quality.md.
package quality

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
)

// MeasureSide is the longer side, in pixels, that a crop is shrunk to
// (never enlarged) before its scores are measured, so that the scores
// describe the document at a fixed reading scale.
const MeasureSide = 1024

// Scores are the measurements of one crop.
type Scores struct {
	// ExposureHigh in [0, 1]: how much of the document is lost to
	// highlights, the larger of the wash-out of its darkest ink and the
	// share of it under blown-out glare (see docs/quality.md).
	ExposureHigh float64
	// ExposureLow in [0, 1]: the share of the document at least as bright
	// as mid-grey paper; a very dark document has almost none.
	ExposureLow float64
	// Sharpness in [1, 10]: the ratio of edge energy before and after an
	// extra Gaussian blur of sigma 2 px at the measuring scale, each less
	// its noise floor (see noiseFloors); about 1 for a blurred document,
	// 2 or more for a sharp one.
	Sharpness float64
	// ShortSide is the crop's shorter side in pixels.
	ShortSide int
}

// Exposure values of Flags.Exposure.
const (
	Normal       = "normal"
	Overexposed  = "overexposed"
	Underexposed = "underexposed"
)

// Thresholds are the request's parameters.
type Thresholds struct {
	MinShape    int     // min_shape: shorter side below this is low resolution
	MinFilesize int64   // min_filesize: file smaller than this (bytes) is low weight
	MaxExposure float64 // max_exposure_score: ExposureHigh above this is overexposed
	MinExposure float64 // min_exposure_score: ExposureLow below this is underexposed
	MaxBlur     float64 // max_blur_score: Sharpness below this is blurred
}

// DefaultThresholds are the service's defaults.
func DefaultThresholds() Thresholds {
	return Thresholds{MinShape: 256, MinFilesize: 10240, MaxExposure: 0.4, MinExposure: 0.05, MaxBlur: 2}
}

// FlagSet is the per-item quality answer of the API.
type FlagSet struct {
	Exposure      string // image_exposure: normal, overexposed or underexposed
	Blurred       bool   // image_blured
	LowResolution bool   // low_image_resolution
	LowWeight     bool   // low_image_weight
}

// Flags applies the request's thresholds to the scores of a crop of a file
// of fileSize bytes. Overexposure wins when both exposure conditions hold.
func Flags(s Scores, fileSize int64, t Thresholds) FlagSet {
	f := FlagSet{Exposure: Normal}
	switch {
	case s.ExposureHigh > t.MaxExposure:
		f.Exposure = Overexposed
	case s.ExposureLow < t.MinExposure:
		f.Exposure = Underexposed
	}
	f.Blurred = s.Sharpness < t.MaxBlur
	f.LowResolution = s.ShortSide < t.MinShape
	f.LowWeight = fileSize < t.MinFilesize
	return f
}

// Measure scores a document crop. An empty image scores as fully
// underexposed and blurred with a short side of 0.
func Measure(img image.Image) Scores {
	s, err := measure(img)
	if err != nil {
		return Scores{Sharpness: 1}
	}
	return s
}

func measure(img image.Image) (Scores, error) {
	b := img.Bounds()
	gray, _, err := cvimg.GrayScaled(img, MeasureSide)
	if err != nil {
		return Scores{}, fmt.Errorf("quality: luma: %w", err)
	}
	defer gray.Close()
	pix, err := gray.DataPtrUint8()
	if err != nil {
		return Scores{}, fmt.Errorf("quality: read luma: %w", err)
	}
	lum := plane{pix: pix, w: gray.Cols(), h: gray.Rows()}
	hist := lum.histogram()
	sharp := sharpness(gray)
	tiles := newTileMap(lum)
	high := tiles.glare()
	// Blur spreads thin strokes and pales the darkest ink, which wash-out
	// would read as overexposure: below washoutSharpness the crop is
	// reported blurred and wash-out is not measured (glare still is). A
	// sheet without print has no ink to be washed out (inkLevel), which is
	// only looked for when the darkest thousandth is pale: inkLevel is
	// never paler than it.
	if sharp >= washoutSharpness && hist.percentile(inkPercentile) > inkNormal {
		if ink, ok := inkLevel(lum, tiles, hist); ok {
			high = math.Max(high, washout(ink))
		}
	}
	return Scores{
		ExposureHigh: high,
		ExposureLow:  litShare(hist),
		Sharpness:    sharp,
		ShortSide:    min(b.Dx(), b.Dy()),
	}, nil
}

// plane is an 8-bit luma image without row padding.
type plane struct {
	pix  []uint8
	w, h int
}

type histogram [256]int

func (p plane) histogram() histogram {
	var h histogram
	for _, v := range p.pix {
		h[v]++
	}
	return h
}

// percentile returns the smallest level at or below which a share q of
// the pixels lies.
func (h *histogram) percentile(q float64) int {
	n := 0
	for _, c := range h {
		n += c
	}
	need := int(math.Ceil(q * float64(n)))
	acc := 0
	for v, c := range h {
		acc += c
		if acc >= need {
			return v
		}
	}
	return 255
}

// share returns the fraction of pixels with level >= lo.
func (h *histogram) share(lo int) float64 {
	n, k := 0, 0
	for v, c := range h {
		n += c
		if v >= lo {
			k += c
		}
	}
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// Exposure score parameters (see docs/quality.md).
const (
	inkPercentile = 0.001 // the "darkest ink" level of a document: its darkest thousandth
	inkNormal     = 96    // ink at or below this level is not washed out at all
	clipLevel     = 250   // a pixel this bright has lost its detail
	litLevel      = 96    // paper reaching this level is lit
	glareFull     = 0.25  // this share of the document under glare scores 1
	tileGrid      = 16    // glare is looked for on a 16 x 16 grid of tiles
	// washoutSharpness is the sharpness below which wash-out is not
	// measured: an edge blurred with sigma 1.6 px or more.
	washoutSharpness = 1.8
)

// washout maps the darkest ink level (inkLevel: the 0.1st percentile of
// luma, low enough that the cores of a sparse document's thin strokes
// still count when the crop is small) linearly from inkNormal (0) to
// white (1): on a blown-out document even the ink is pale.
func washout(ink int) float64 {
	return clamp01(float64(ink-inkNormal) / (255 - inkNormal))
}

// litShare is the fraction of pixels at least litLevel bright.
func litShare(h histogram) float64 { return h.share(litLevel) }

// sharpness is E(I) / E(G2 * I), where E is the mean squared Sobel
// gradient and G2 a Gaussian of sigma 2 px, clamped to [1, 10]. For an edge
// blurred with sigma s it is sqrt(s^2 + 4) / s: 4.1 for s = 0.5, 2.2 for
// s = 1, 1.4 for s = 2. A crop without edges scores 10.
//
// Noise adds gradient energy that the blur removes, so a blurred document
// photographed in dim light (grain of a few levels) would read sharp.
// Each energy's noise floor (see noiseFloors) is taken off first.
func sharpness(gray gocv.Mat) float64 {
	sq0 := gradSquares(gray)
	defer sq0.Close()
	blur := gocv.NewMat()
	defer blur.Close()
	gocv.GaussianBlur(gray, &blur, image.Pt(0, 0), 2, 2, gocv.BorderReplicate)
	sq2 := gradSquares(blur)
	defer sq2.Close()
	e0, e2 := sq0.Mean().Val1, sq2.Mean().Val1
	n0, n2 := noiseFloors(sq0, sq2)
	if e2-n2 < 1e-3 || e2-n2 < grainOnly*n2 {
		return 10 // no edge, or nothing but grain: a blank sheet
	}
	return math.Max(1, math.Min(10, (e0-n0)/(e2-n2)))
}

// Noise floors: the crop is cut into floorTile-pixel tiles; the flat
// ones have a mean gradient energy under flatEnergy once blurred (white
// grain of 10 levels has 27 there, a blurred stroke of print hundreds).
const (
	floorTile  = 16
	flatEnergy = 40
	// minFlat is the least share of flat tiles a floor is measured on;
	// with fewer (print to the crop's edges) there is none.
	minFlat = 0.05
	// noiseRatio is the least ratio of the flat tiles' energies before
	// and after the blur at which they hold grain rather than shading:
	// the blur takes off nearly all of white noise's energy (ratio 90),
	// little of a gentle slope of light.
	noiseRatio = 10
	// grainOnly: a crop whose blurred energy is within this share of its
	// floor has nothing but grain, and no edge to be sharp or blurred.
	grainOnly = 0.25
)

// gradSquares returns the squared Sobel gradient magnitude of m, per
// pixel (its mean is E).
func gradSquares(m gocv.Mat) gocv.Mat {
	sq, g := gocv.NewMat(), gocv.NewMat()
	defer g.Close()
	gocv.Sobel(m, &sq, gocv.MatTypeCV32F, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(m, &g, gocv.MatTypeCV32F, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	gocv.Multiply(sq, sq, &sq)
	gocv.Multiply(g, g, &g)
	gocv.Add(sq, g, &sq)
	return sq
}

// noiseFloors returns the energy grain puts in each term: the mean of
// sq0 and of sq2 over the crop's flat tiles (on a document its paper or
// background, where only grain has gradients), when they are enough and
// their ratio says they hold grain; 0 and 0 otherwise.
func noiseFloors(sq0, sq2 gocv.Mat) (n0, n2 float64) {
	t0, _, _ := tileMeans(sq0)
	t2, _, _ := tileMeans(sq2)
	if len(t0) == 0 || len(t0) != len(t2) {
		return 0, 0
	}
	flat := 0
	for i, e := range t2 {
		if e < flatEnergy {
			n0 += t0[i]
			n2 += t2[i]
			flat++
		}
	}
	if flat == 0 || float64(flat) < minFlat*float64(len(t2)) {
		return 0, 0
	}
	n0, n2 = n0/float64(flat), n2/float64(flat)
	if n0 < noiseRatio*n2 {
		return 0, 0
	}
	return n0, n2
}

// tileMeans returns the means of m's whole floorTile tiles and how many
// there are across and down.
func tileMeans(m gocv.Mat) ([]float64, int, int) {
	tw, th := m.Cols()/floorTile, m.Rows()/floorTile
	if tw == 0 || th == 0 {
		return nil, 0, 0
	}
	// Area resampling of the whole tiles is their means.
	whole := m.Region(image.Rect(0, 0, tw*floorTile, th*floorTile))
	defer whole.Close()
	means := gocv.NewMat()
	defer means.Close()
	gocv.Resize(whole, &means, image.Pt(tw, th), 0, 0, gocv.InterpolationArea)
	vals, err := means.DataPtrFloat32()
	if err != nil {
		return nil, 0, 0
	}
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = float64(v)
	}
	return out, tw, th
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

func grayOf(img image.Image) (plane, gocv.Mat, error) {
	gray, _, err := cvimg.GrayScaled(img, MeasureSide)
	if err != nil {
		return plane{}, gray, err
	}
	pix, _ := gray.DataPtrUint8()
	return plane{pix: pix, w: gray.Cols(), h: gray.Rows()}, gray, nil
}
