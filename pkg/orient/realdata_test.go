package orient

import (
	"context"
	"encoding/csv"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/decode"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
	"docsuite/pkg/ppocr"
)

// realdata is the shared folder of real photos and scans, beside the
// repository; the test skips when it is absent.
var realdata = filepath.Join("..", "..", "..", "shared", "realdata")

// TestRealdataEightWays turns every single-document real image of a
// catalogue type the eight ways (the whole image: most are tight scans or
// photos filling the frame) and measures how often the orienter names the
// code that undoes the turn. The real images are never trained on; the
// floor sits a few images below the figure measured (294 of 344, 0.855,
// docs/models.md) so that a regression fails.
func TestRealdataEightWays(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	f, err := os.Open(filepath.Join(realdata, "manifest.csv"))
	if err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	o := open(t)
	n, right := 0, 0
	for _, rec := range recs[1:] {
		types := strings.Split(rec[4], ";")
		if len(types) != 1 || doctypes.IsSpecial(types[0]) || !doctypes.Known(types[0]) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(realdata, rec[0]))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := decode.Open(context.Background(), data, decode.Options{MaxPages: 100, TempDir: t.TempDir()})
		if err != nil {
			continue // the format tests cover files that do not decode
		}
		img, err := doc.Page(context.Background(), 0)
		doc.Close()
		if err != nil {
			continue
		}
		wrong := ""
		for s := geom.Rotation(0); s < geom.NumRotations; s++ {
			turned, err := cvimg.Turn(img, s)
			if err != nil {
				t.Fatal(err)
			}
			r, _, err := o.Orient(context.Background(), turned)
			if err != nil {
				t.Fatal(err)
			}
			n++
			if r == s.Inverse() {
				right++
			} else {
				wrong += " " + s.String() + "→" + r.String()
			}
		}
		if wrong != "" {
			t.Logf("%s (turned → answered):%s", rec[0], wrong)
		}
	}
	acc := float64(right) / float64(max(n, 1))
	t.Logf("real images turned 8 ways: %d of %d right (%.3f)", right, n, acc)
	if acc < 0.82 {
		t.Errorf("orientation on real images %.3f, want at least 0.82", acc)
	}
}

// TestDetectLinesFindsSmallPrintOnLargePages checks the finer detection
// on real pages: a passport spread photographed 2,048 pixels tall, whose
// small captions vanish at 640 pixels (3 lines found there), gets its
// lines; a card photographed small, on which 640 pixels find plenty,
// keeps that finding.
func TestDetectLinesFindsSmallPrintOnLargePages(t *testing.T) {
	o := open(t)
	if o.text == nil {
		t.Skip("text-line models not installed")
	}
	ctx := context.Background()
	for _, tc := range []struct {
		file      string
		atLeast   int
		unchanged bool
	}{
		{"AlexBrrr-rkn-passport-ai_v2/static__images__pasport.png", 20, false},
		{"Exemtik-passport-detector/data__original__2-1.jpg", fewLines, true},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			img := realPage(t, tc.file)
			first, err := o.text.Detect(ctx, ppocr.NewImage(img), detectOptions())
			if err != nil {
				t.Fatal(err)
			}
			got, err := DetectLines(ctx, o.text, img)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < tc.atLeast {
				t.Errorf("%d lines (%d at %d px), want at least %d", len(got), len(first), detectSide, tc.atLeast)
			}
			if tc.unchanged != (len(got) == len(first)) {
				t.Errorf("%d lines, %d at the first detection; want them the same: %v", len(got), len(first), tc.unchanged)
			}
		})
	}
}

// TestSidewaysTextIsDetectedAgain checks real passports photographed on
// their side: the text runs down the crop, and the lines the detector
// cut there read upside down (both were answered a quarter turn the wrong
// way); found again on the crop turned a quarter they read right.
func TestSidewaysTextIsDetectedAgain(t *testing.T) {
	o := open(t)
	if o.text == nil {
		t.Skip("text-line models not installed")
	}
	ctx := context.Background()
	for _, file := range []string{
		"iAmmarTahir-MASK-RCNN-Dataset/IndPass__Original__1.jpg",
		"iAmmarTahir-MASK-RCNN-Dataset/IndPass__Original__12.jpg",
	} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			img := realPage(t, file)
			turned, err := cvimg.Turn(img, 1)
			if err != nil {
				t.Fatal(err)
			}
			r, conf, err := o.Orient(ctx, turned)
			if err != nil {
				t.Fatal(err)
			}
			if want := geom.Rotation(1).Inverse(); r != want {
				t.Errorf("turned a quarter clockwise: answered %v (%.2f), want %v", r, conf, want)
			}
		})
	}
}

// realPage decodes the first page of a real file as the service does; the
// test skips when realdata is absent.
func realPage(t *testing.T, file string) image.Image {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realdata, file))
	if err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	ctx := context.Background()
	doc, err := decode.Open(ctx, data, decode.Options{MaxPages: 1, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.Page(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
