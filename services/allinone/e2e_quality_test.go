package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/decode"
	"docsuite/pkg/quality"
	"docsuite/pkg/testutil"
)

// qualityBase is a real 300 dpi scan of a passport spread from the shared
// real data, untouched: normal and sharp at the defaults.
const qualityBase = "SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg"

// glareBase is a real scan of a green passport spread on a white scanner
// lid: its paper is below clipping, so a bright spot on it is glare (on
// qualityBase's white paper it could not be told from paper).
const glareBase = "iAmmarTahir-MASK-RCNN-Dataset/PakPass__Original__5.jpg"

// realFile reads a file of ../shared/realdata or skips the test.
func realFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata", rel))
	if err != nil {
		t.Skipf("no shared real data: %v", err)
	}
	return data
}

// flagsOf is the item's four quality flags as the API answers them.
type flagsOf struct {
	exposure                   string
	blurred, lowRes, lowWeight bool
}

// classifyWhole posts a file with mode=classify_only (the page is the one
// item, so the flags describe exactly the image sent) and the extra query,
// and returns the item's flags.
func classifyWhole(t *testing.T, in *instance, query string, data []byte) flagsOf {
	t.Helper()
	status, body := in.post(t, "/pipelines/run/classify?mode=classify_only&return_crops=false"+query, "image", data)
	if status != http.StatusOK {
		t.Fatalf("%s: status %d: %v", query, status, body)
	}
	items, _ := body["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("%s: %d items, want 1", query, len(items))
	}
	it := items[0].(map[string]any)
	f := flagsOf{exposure: fmt.Sprint(it["image_exposure"])}
	f.blurred, _ = it["image_blured"].(bool)
	f.lowRes, _ = it["low_image_resolution"].(bool)
	f.lowWeight, _ = it["low_image_weight"].(bool)
	return f
}

// measured decodes a file as the service does and measures it.
func measured(t *testing.T, data []byte) quality.Scores {
	t.Helper()
	ctx := context.Background()
	doc, err := decode.Open(ctx, data, decode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	page, err := doc.Page(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	return quality.Measure(page)
}

// TestQualityFlagsOnVariantsOfARealScan sends degraded variants of a real
// scan and expects each to raise its flag, and only its flag, at the
// default thresholds.
func TestQualityFlagsOnVariantsOfARealScan(t *testing.T) {
	base := realFile(t, qualityBase)
	img, err := jpeg.Decode(bytes.NewReader(base))
	if err != nil {
		t.Fatal(err)
	}
	greenFile := realFile(t, glareBase)
	green, err := jpeg.Decode(bytes.NewReader(greenFile))
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	small := shrink(img, 300)
	tests := []struct {
		variant string
		data    []byte
		want    flagsOf
	}{
		{"untouched", base, flagsOf{exposure: "normal"}},
		{"washed out", encodePNG(t, washOut(img)), flagsOf{exposure: "overexposed"}},
		{"brightened to a white sheet", encodePNG(t, mapRGB(img, func(v float64) float64 { return v + 170 })), flagsOf{exposure: "normal"}},
		{"untouched green passport", greenFile, flagsOf{exposure: "normal"}},
		{"glare over a fifth of a green passport", encodePNG(t, whiteEllipse(green, 0.6, 0.45, 0.28, 0.25)), flagsOf{exposure: "overexposed"}},
		{"darkened", encodePNG(t, mapRGB(img, func(v float64) float64 { return v * 0.2 })), flagsOf{exposure: "underexposed"}},
		{"blurred", encodePNG(t, boxBlur(shrink(img, 700), 3)), flagsOf{exposure: "normal", blurred: true}},
		{"downscaled", encodePNG(t, shrink(img, 200)), flagsOf{exposure: "normal", lowRes: true}},
		{"heavily compressed", encodeJPEG(t, small, 3), flagsOf{exposure: "normal", lowWeight: true}},
	}
	for _, tc := range tests {
		t.Run(tc.variant, func(t *testing.T) {
			if got := classifyWhole(t, in, "", tc.data); got != tc.want {
				t.Errorf("flags %+v, want %+v (scores %+v, %d bytes)", got, tc.want, measured(t, tc.data), len(tc.data))
			}
		})
	}
}

// washOut pales every pixel towards white to 30 % of its distance: the
// print stays on the page, faint, as on an overexposed photo. (Brightening
// by a constant turns this scan into a white sheet, which is blank, not
// overexposed.)
func washOut(img image.Image) image.Image {
	return mapRGB(img, func(v float64) float64 { return 255 - 0.3*(255-v) })
}

// TestQualityThresholdsMoveFlags checks each parameter both ways through
// the API: set just past a file's own score the flag turns on, set at the
// score it stays off, as docs/quality.md states the rules.
func TestQualityThresholdsMoveFlags(t *testing.T) {
	base := realFile(t, qualityBase)
	img, err := jpeg.Decode(bytes.NewReader(base))
	if err != nil {
		t.Fatal(err)
	}
	bright := encodePNG(t, washOut(img))
	in := startAllInOne(t, nil)
	s, sb := measured(t, base), measured(t, bright)
	if sb.ExposureHigh <= 0 || s.ExposureLow <= 0 {
		t.Fatalf("scores leave no room below them: %+v, washed out %+v", s, sb)
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	up := func(v float64) float64 { return math.Nextafter(v, math.Inf(1)) }
	down := func(v float64) float64 { return math.Nextafter(v, math.Inf(-1)) }
	size := len(base)
	tests := []struct {
		name  string
		data  []byte
		query string
		want  flagsOf
	}{
		{"max_exposure_score at the score", bright, "&max_exposure_score=" + num(sb.ExposureHigh), flagsOf{exposure: "normal"}},
		{"max_exposure_score just below", bright, "&max_exposure_score=" + num(down(sb.ExposureHigh)), flagsOf{exposure: "overexposed"}},
		{"max_exposure_score 1 lets nothing be overexposed", bright, "&max_exposure_score=1", flagsOf{exposure: "normal"}},
		{"min_exposure_score at the score", base, "&min_exposure_score=" + num(s.ExposureLow), flagsOf{exposure: "normal"}},
		{"min_exposure_score just above", base, "&min_exposure_score=" + num(up(s.ExposureLow)), flagsOf{exposure: "underexposed"}},
		{"overexposure wins over underexposure", bright, "&min_exposure_score=2", flagsOf{exposure: "overexposed"}},
		{"max_blur_score at the sharpness", base, "&max_blur_score=" + num(s.Sharpness), flagsOf{exposure: "normal"}},
		{"max_blur_score just above", base, "&max_blur_score=" + num(up(s.Sharpness)), flagsOf{exposure: "normal", blurred: true}},
		{"min_shape at the short side", base, "&min_shape=" + strconv.Itoa(s.ShortSide), flagsOf{exposure: "normal"}},
		{"min_shape one above", base, "&min_shape=" + strconv.Itoa(s.ShortSide+1), flagsOf{exposure: "normal", lowRes: true}},
		{"min_filesize at the size", base, "&min_filesize=" + strconv.Itoa(size), flagsOf{exposure: "normal"}},
		{"min_filesize one above", base, "&min_filesize=" + strconv.Itoa(size+1), flagsOf{exposure: "normal", lowWeight: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := classifyWhole(t, in, tc.query, tc.data); got != tc.want {
				t.Errorf("%s: flags %+v, want %+v", tc.query, got, tc.want)
			}
		})
	}
}

// TestQualityParametersRejectBadValues expects 422 naming the parameter for
// every value a threshold cannot take.
func TestQualityParametersRejectBadValues(t *testing.T) {
	in := startAllInOne(t, nil)
	page := scanJPEG(t, 400, 300)
	var tests []string
	for _, p := range []string{"max_exposure_score", "min_exposure_score", "max_blur_score"} {
		tests = append(tests, p+"=0", p+"=-0.5", p+"=abc", p+"=NaN", p+"=Inf")
	}
	for _, p := range []string{"min_shape", "min_filesize"} {
		tests = append(tests, p+"=0", p+"=-5", p+"=1.5", p+"=abc", p+"=99999999999")
	}
	for _, q := range tests {
		t.Run(q, func(t *testing.T) {
			status, body := in.post(t, "/pipelines/run/classify?"+q, "image", page)
			if status != http.StatusUnprocessableEntity || body["errno"] != 16.0 {
				t.Fatalf("status %d %v, want 422 errno 16", status, body)
			}
			detail, _ := body["detail"].([]any)
			name := q[:strings.IndexByte(q, '=')]
			if len(detail) == 0 || !strings.Contains(toString(detail[0].(map[string]any)["loc"]), name) {
				t.Errorf("detail does not name %s: %v", name, body["detail"])
			}
		})
	}
}

// TestCheckFakeOnRealFiles sends a camera original and a file saved by
// Photoshop: only the second is fake, and fake_reasons says why. The check
// reads the file, not the documents, so the page is classified whole.
func TestCheckFakeOnRealFiles(t *testing.T) {
	camera := realFile(t, "mindee-client-lib-test-data/v1__products__multi_receipts_detector__default_sample.jpg")
	edited := realFile(t, "PassportEye/passporteye__mrz__testdata__100_pass-cze.jpg")
	in := startAllInOne(t, nil)
	tests := []struct {
		name   string
		data   []byte
		fake   bool
		editor string
	}{
		{"Pixel 6 camera original", camera, false, ""},
		{"saved by Photoshop CS", edited, true, "Adobe Photoshop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := in.post(t, "/pipelines/run/classify?mode=classify_only&return_crops=false&check_fake=true", "image", tc.data)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, body)
			}
			if body["fake"] != tc.fake {
				t.Errorf("fake = %v, want %v (reasons %v)", body["fake"], tc.fake, body["fake_reasons"])
			}
			reasons, _ := body["fake_reasons"].([]any)
			if !tc.fake {
				if len(reasons) != 0 {
					t.Errorf("a camera original has reasons %v", reasons)
				}
				return
			}
			named := false
			for _, r := range reasons {
				m := r.(map[string]any)
				for _, k := range []string{"source", "field", "value"} {
					if s, _ := m[k].(string); s == "" {
						t.Errorf("reason without %s: %v", k, m)
					}
				}
				named = named || m["editor"] == tc.editor
			}
			if !named {
				t.Errorf("no reason names %s: %v", tc.editor, reasons)
			}
		})
	}
}

// mapRGB applies f to every colour channel of every pixel.
func mapRGB(img image.Image, f func(v float64) float64) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	c := func(v uint32) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(f(float64(v>>8)))))) }
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			out.SetRGBA(x, y, color.RGBA{c(r), c(g), c(bl), 255})
		}
	}
	return out
}

// whiteEllipse lays a blown-out ellipse centred at (cx, cy) with radii
// (rx, ry), in fractions of the image, over a copy of img.
func whiteEllipse(img image.Image, cx, cy, rx, ry float64) *image.RGBA {
	out := mapRGB(img, func(v float64) float64 { return v })
	b := out.Bounds()
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dx := (float64(x)/float64(b.Dx()) - cx) / rx
			dy := (float64(y)/float64(b.Dy()) - cy) / ry
			if dx*dx+dy*dy < 1 {
				out.SetRGBA(x, y, color.RGBA{255, 255, 255, 255})
			}
		}
	}
	return out
}

// shrink scales img by area averaging so that its shorter side is short
// pixels.
func shrink(img image.Image, short int) *image.RGBA {
	b := img.Bounds()
	f := float64(min(b.Dx(), b.Dy())) / float64(short)
	w, h := int(float64(b.Dx())/f+0.5), int(float64(b.Dy())/f+0.5)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			x0, y0 := b.Min.X+int(float64(x)*f), b.Min.Y+int(float64(y)*f)
			x1, y1 := max(x0+1, b.Min.X+int(float64(x+1)*f)), max(y0+1, b.Min.Y+int(float64(y+1)*f))
			var sr, sg, sb, n uint64
			for yy := y0; yy < min(y1, b.Max.Y); yy++ {
				for xx := x0; xx < min(x1, b.Max.X); xx++ {
					r, g, bl, _ := img.At(xx, yy).RGBA()
					sr, sg, sb, n = sr+uint64(r>>8), sg+uint64(g>>8), sb+uint64(bl>>8), n+1
				}
			}
			out.SetRGBA(x, y, color.RGBA{uint8(sr / n), uint8(sg / n), uint8(sb / n), 255})
		}
	}
	return out
}

// boxBlur runs three passes of a (2r+1)-wide box filter each way, close to
// a Gaussian of sigma r.
func boxBlur(img *image.RGBA, r int) *image.RGBA {
	cur := img
	for pass := 0; pass < 6; pass++ {
		dx, dy := 1, 0
		if pass%2 == 1 {
			dx, dy = 0, 1
		}
		b := cur.Bounds()
		next := image.NewRGBA(b)
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				var s [3]int
				for k := -r; k <= r; k++ {
					xx, yy := min(max(x+k*dx, 0), b.Dx()-1), min(max(y+k*dy, 0), b.Dy()-1)
					p := cur.RGBAAt(xx, yy)
					s[0], s[1], s[2] = s[0]+int(p.R), s[1]+int(p.G), s[2]+int(p.B)
				}
				n := 2*r + 1
				next.SetRGBA(x, y, color.RGBA{uint8(s[0] / n), uint8(s[1] / n), uint8(s[2] / n), 255})
			}
		}
		cur = next
	}
	return cur
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeJPEG(t *testing.T, img image.Image, q int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
