package quality

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	_ "image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/testutil"
)

// realdata is the shared folder of real photos and scans.
func realdata() string { return filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata") }

// realImages decodes the JPEG and PNG files of the shared real data.
func realImages(t *testing.T) map[string]image.Image {
	t.Helper()
	f, err := os.Open(filepath.Join(realdata(), "manifest.csv"))
	if err != nil {
		t.Skip("no shared real data")
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]image.Image{}
	for _, r := range recs[1:] {
		ext := strings.ToLower(filepath.Ext(r[0]))
		if ext != ".jpg" && ext != ".png" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(realdata(), r[0]))
		if err != nil {
			continue
		}
		img, _, err := image.Decode(bytes.NewReader(data))
		if err == nil {
			out[r[0]] = img
		}
	}
	return out
}

// mapLuma applies f to every channel of every pixel.
func mapLuma(img image.Image, f func(v float64) float64) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			c := func(v uint32) uint8 { return uint8(math.Max(0, math.Min(255, f(float64(v>>8))))) }
			out.SetRGBA(x, y, color.RGBA{c(r), c(g), c(bl), 255})
		}
	}
	return out
}

// noisy adds Gaussian noise of sigma luma levels to every pixel (the same
// to its three channels, from a fixed seed), at the measuring scale: an
// image larger than MeasureSide gets it in blocks of the pixels that
// shrink to one, so that shrinking does not average it away.
func noisy(img image.Image, sigma float64) image.Image {
	r := rand.New(rand.NewPCG(7, 11))
	b := img.Bounds()
	step := max(1, int(math.Round(float64(max(b.Dx(), b.Dy()))/MeasureSide)))
	cols := (b.Dx() + step - 1) / step
	noise := make([]float64, cols*((b.Dy()+step-1)/step))
	for i := range noise {
		noise[i] = r.NormFloat64() * sigma
	}
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			n := noise[(y/step)*cols+x/step]
			cr, cg, cb, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			c := func(v uint32) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(float64(v>>8)+n)))) }
			out.SetRGBA(x, y, color.RGBA{c(cr), c(cg), c(cb), 255})
		}
	}
	return out
}

// blur applies a Gaussian of sigma px at the measuring scale.
func blur(t *testing.T, img image.Image, sigma float64) image.Image {
	t.Helper()
	m, err := cvimg.BGR(img)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	scale := math.Max(1, float64(max(img.Bounds().Dx(), img.Bounds().Dy()))/MeasureSide)
	out := gocv.NewMat()
	defer out.Close()
	gocv.GaussianBlur(m, &out, image.Pt(0, 0), sigma*scale, sigma*scale, gocv.BorderReplicate)
	res, err := cvimg.ToImage(out)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// resize scales img so its shorter side is short pixels.
func resize(t *testing.T, img image.Image, short int) image.Image {
	t.Helper()
	m, err := cvimg.BGR(img)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b := img.Bounds()
	f := float64(short) / float64(min(b.Dx(), b.Dy()))
	out := gocv.NewMat()
	defer out.Close()
	gocv.Resize(m, &out, image.Pt(int(float64(b.Dx())*f+0.5), int(float64(b.Dy())*f+0.5)), 0, 0, gocv.InterpolationArea)
	res, err := cvimg.ToImage(out)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// glareSpot lays a blown-out ellipse over a fifth of the image.
func glareSpot(img image.Image) *image.RGBA {
	out := mapLuma(img, func(v float64) float64 { return v })
	b := out.Bounds()
	cx, cy := float64(b.Dx())*0.6, float64(b.Dy())*0.45
	rx, ry := float64(b.Dx())*0.28, float64(b.Dy())*0.25
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dx, dy := (float64(x)-cx)/rx, (float64(y)-cy)/ry
			if dx*dx+dy*dy < 1 {
				out.SetRGBA(x, y, color.RGBA{255, 255, 255, 255})
			}
		}
	}
	return out
}

// glareRate is the share of clean real bases whose paper is below the
// clipping level on which the glare variant must come out overexposed
// (glare is undefined on white paper). It is the one variant allowed
// misses: a spot laid over a white card inside a white figure is blank
// paper at the tile scale (24 of 25 when written). Every other variant
// must be right on every base.
const glareRate = 0.9

// TestFlagsOnVariantsOfARealScan takes every real photo and scan that
// measures normal and sharp, makes degraded variants of it and checks
// each raises its flag, and only its flag, at the default thresholds.
func TestFlagsOnVariantsOfARealScan(t *testing.T) {
	imgs := realImages(t)
	def := DefaultThresholds()
	names := make([]string, 0, len(imgs))
	for n := range imgs {
		names = append(names, n)
	}
	sort.Strings(names)
	hits, tried, bases := map[string]int{}, map[string]int{}, 0
	spread := map[string]scoreRange{}
	for _, name := range names {
		img := imgs[name]
		if f := Flags(Measure(img), 1<<20, def); f != (FlagSet{Exposure: Normal}) || min(img.Bounds().Dx(), img.Bounds().Dy()) < 600 {
			continue // only clean bases of a useful size
		}
		bases++
		var small bytes.Buffer
		if err := jpeg.Encode(&small, resize(t, img, 300), &jpeg.Options{Quality: 3}); err != nil {
			t.Fatal(err)
		}
		bright := mapLuma(img, func(v float64) float64 { return v + 170 })
		brightWant := FlagSet{Exposure: Overexposed}
		if whiteSheet(t, bright) {
			// Nothing of the document is left: a white sheet is blank,
			// not overexposed.
			brightWant.Exposure = Normal
			t.Logf("%s brightened: a white sheet", filepath.Base(name))
		}
		tests := []struct {
			variant string
			img     image.Image
			size    int64
			want    FlagSet
		}{
			{"untouched", img, 1 << 20, FlagSet{Exposure: Normal}},
			{"brightened", bright, 1 << 20, brightWant},
			{"washed out", mapLuma(img, func(v float64) float64 { return 255 - 0.3*(255-v) }), 1 << 20, FlagSet{Exposure: Overexposed}},
			{"glare", glareSpot(img), 1 << 20, FlagSet{Exposure: Overexposed}},
			{"darkened", mapLuma(img, func(v float64) float64 { return v * 0.2 }), 1 << 20, FlagSet{Exposure: Underexposed}},
			{"blurred", blur(t, img, 3), 1 << 20, FlagSet{Exposure: Normal, Blurred: true}},
			{"blurred, noisy", noisy(blur(t, img, 3), 6), 1 << 20, FlagSet{Exposure: Normal, Blurred: true}},
			{"noisy", noisy(img, 6), 1 << 20, FlagSet{Exposure: Normal}},
			{"downscaled", resize(t, img, 200), 1 << 20, FlagSet{Exposure: Normal, LowResolution: true}},
			{"heavily compressed", resize(t, img, 300), int64(small.Len()), FlagSet{Exposure: Normal, LowWeight: true}},
		}
		// Glare cannot be told from paper already at the clipping level.
		gp, gm, err := grayOf(img)
		if err != nil {
			t.Fatal(err)
		}
		whitePaper := newTileMap(gp).paper >= clipLevel-paperMargin
		gm.Close()
		for _, tc := range tests {
			if tc.variant == "glare" && whitePaper {
				continue
			}
			tried[tc.variant]++
			s := Measure(tc.img)
			spread[tc.variant] = spread[tc.variant].add(s)
			if got := Flags(s, tc.size, def); got == tc.want {
				hits[tc.variant]++
			} else {
				t.Logf("%s %s: flags %+v, want %+v (scores %+v)", filepath.Base(name), tc.variant, got, tc.want, s)
			}
		}
	}
	if bases == 0 {
		t.Fatal("no real image measures clean: the scores are miscalibrated")
	}
	for _, v := range []string{"untouched", "brightened", "washed out", "glare", "darkened", "blurred", "blurred, noisy", "noisy", "downscaled", "heavily compressed"} {
		rate := float64(hits[v]) / float64(max(tried[v], 1))
		t.Logf("%-18s right on %d of %d clean real bases (%.0f%%); scores %s", v, hits[v], tried[v], 100*rate, spread[v])
		switch {
		case v == "glare" && rate < glareRate:
			t.Errorf("glare: right on %.0f%% of bases, want at least %.0f%%", 100*rate, 100*glareRate)
		case v != "glare" && hits[v] != tried[v]:
			t.Errorf("%s: right on %d of %d bases, want all", v, hits[v], tried[v])
		}
	}
}

// whiteSheet says whether img, at the measuring scale, has fewer than
// one pixel in 10 000 darker than white by printLevels: a page brightened
// until nothing of its document is left.
func whiteSheet(t *testing.T, img image.Image) bool {
	t.Helper()
	p, m, err := grayOf(img)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	dark := 0
	for _, v := range p.pix {
		if int(v) <= 255-printLevels {
			dark++
		}
	}
	return dark*10000 < len(p.pix)
}

// TestRealdataClean measures every untouched real image whole (as the
// cropper measures a page it finds no document on) and expects none to be
// flagged over- or underexposed or blurred: they are ordinary photos and
// scans. The size flags are logged: a small file is small.
func TestRealdataClean(t *testing.T) {
	imgs := realImages(t)
	names := make([]string, 0, len(imgs))
	for n := range imgs {
		names = append(names, n)
	}
	sort.Strings(names)
	var all scoreRange
	small := 0
	for _, name := range names {
		img := imgs[name]
		s := Measure(img)
		all = all.add(s)
		fi, err := os.Stat(filepath.Join(realdata(), name))
		if err != nil {
			t.Fatal(err)
		}
		f := Flags(s, fi.Size(), DefaultThresholds())
		if f.Exposure != Normal || f.Blurred {
			t.Errorf("%s: flagged %+v (scores %+v)", name, f, s)
		}
		if f.LowResolution || f.LowWeight {
			small++
			t.Logf("%s: %d px short side, %d bytes: low resolution %v, low weight %v", name, s.ShortSide, fi.Size(), f.LowResolution, f.LowWeight)
		}
	}
	t.Logf("%d real images; scores %s; %d small by the size flags", len(imgs), all, small)
}

// scoreRange is the spread of the scores of a set of images.
type scoreRange struct {
	n                int
	high, low, sharp [2]float64 // min and max
}

func (r scoreRange) add(s Scores) scoreRange {
	upd := func(m *[2]float64, v float64) {
		if r.n == 0 || v < m[0] {
			m[0] = v
		}
		if r.n == 0 || v > m[1] {
			m[1] = v
		}
	}
	upd(&r.high, s.ExposureHigh)
	upd(&r.low, s.ExposureLow)
	upd(&r.sharp, s.Sharpness)
	r.n++
	return r
}

func (r scoreRange) String() string {
	return fmt.Sprintf("ExposureHigh %.2f..%.2f, ExposureLow %.2f..%.2f, Sharpness %.2f..%.2f",
		r.high[0], r.high[1], r.low[0], r.low[1], r.sharp[0], r.sharp[1])
}

// TestThresholdsMoveFlags checks each parameter moves its flag exactly at
// the threshold.
func TestThresholdsMoveFlags(t *testing.T) {
	s := Scores{ExposureHigh: 0.3, ExposureLow: 0.1, Sharpness: 2.5, ShortSide: 300}
	tests := []struct {
		name string
		t    Thresholds
		size int64
		want FlagSet
	}{
		{"defaults", DefaultThresholds(), 20000, FlagSet{Exposure: Normal}},
		{"max_exposure below the score", Thresholds{MinShape: 256, MinFilesize: 10240, MaxExposure: 0.29, MinExposure: 0.05, MaxBlur: 2}, 20000, FlagSet{Exposure: Overexposed}},
		{"max_exposure at the score", Thresholds{MinShape: 256, MinFilesize: 10240, MaxExposure: 0.3, MinExposure: 0.05, MaxBlur: 2}, 20000, FlagSet{Exposure: Normal}},
		{"min_exposure above the score", Thresholds{MinShape: 256, MinFilesize: 10240, MaxExposure: 0.4, MinExposure: 0.11, MaxBlur: 2}, 20000, FlagSet{Exposure: Underexposed}},
		{"both: over wins", Thresholds{MinShape: 256, MinFilesize: 10240, MaxExposure: 0.2, MinExposure: 0.11, MaxBlur: 2}, 20000, FlagSet{Exposure: Overexposed}},
		{"max_blur above sharpness", Thresholds{MinShape: 256, MinFilesize: 10240, MaxExposure: 0.4, MinExposure: 0.05, MaxBlur: 2.6}, 20000, FlagSet{Exposure: Normal, Blurred: true}},
		{"min_shape above the side", Thresholds{MinShape: 301, MinFilesize: 10240, MaxExposure: 0.4, MinExposure: 0.05, MaxBlur: 2}, 20000, FlagSet{Exposure: Normal, LowResolution: true}},
		{"min_shape at the side", Thresholds{MinShape: 300, MinFilesize: 10240, MaxExposure: 0.4, MinExposure: 0.05, MaxBlur: 2}, 20000, FlagSet{Exposure: Normal}},
		{"min_filesize above the file", DefaultThresholds(), 10239, FlagSet{Exposure: Normal, LowWeight: true}},
	}
	for _, tc := range tests {
		if got := Flags(s, tc.size, tc.t); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
