package zonecheck

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/decode"
	"docsuite/pkg/extract"
	"docsuite/pkg/mrz"
	"docsuite/pkg/ocr"
	"docsuite/pkg/synth/tamper"
	"docsuite/pkg/testutil"
)

// realdata holds real photos and scans (evaluation only), when present.
const realdata = "../../../../shared/realdata"

func TestPaintOver(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for y := 0; y < 40; y++ {
		for x := 0; x < 60; x++ {
			c := uint8(200)
			if y >= 20 && y < 30 {
				c = 10 // a dark line of "text"
			}
			img.Set(x, y, color.RGBA{c, c, c, 255})
		}
	}
	out := paintOver(img, []image.Rectangle{image.Rect(10, 20, 50, 30)})
	cases := []struct {
		p    image.Point
		want uint8
	}{
		{image.Pt(30, 25), 200}, // painted with the page above
		{image.Pt(5, 25), 10},   // outside the widened rectangle
		{image.Pt(30, 5), 200},
	}
	for _, c := range cases {
		r, _, _, _ := out.At(c.p.X, c.p.Y).RGBA()
		if uint8(r>>8) != c.want {
			t.Errorf("pixel %v = %d, want %d", c.p, r>>8, c.want)
		}
	}
	if r, _, _, _ := img.At(30, 25).RGBA(); r>>8 != 10 {
		t.Error("paintOver changed its input")
	}
}

// newChecker opens the text models and Tesseract, or skips.
func newChecker(t testing.TB) *Checker {
	t.Helper()
	e := testutil.PPOCR(t)
	o, err := ocr.New(1, "rus")
	if err != nil {
		t.Skipf("Tesseract rus not available: %v", err)
	}
	t.Cleanup(o.Close)
	rd := mrz.NewReader(e)
	x, err := extract.New(rd, o)
	if err != nil {
		t.Fatal(err)
	}
	return New(rd, x)
}

// docCrop cuts a sample's document out by its outline's bounding box.
func docCrop(t *testing.T, s *tamper.Sample) image.Image {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(s.JPEG))
	if err != nil {
		t.Fatal(err)
	}
	q := s.Doc.Quad
	r := image.Rect(int(math.Min(q[0].X, q[2].X)), int(math.Min(q[0].Y, q[1].Y)),
		int(math.Max(q[1].X, q[3].X)), int(math.Max(q[2].Y, q[3].Y))).Intersect(img.Bounds())
	return img.(*image.YCbCr).SubImage(r)
}

// TestEvalSynthetic measures the zone check on synthetic Russian internal
// passports (passport_main, flat scans): untouched ones, and ones whose
// visual number or date was replaced by another passport's
// (tamper.AlterField). It is a
// measurement, run on demand: ZONECHECK_EVAL_N sets the count per kind;
// the figures are in docs/accuracy-fraud.md.
func TestEvalSynthetic(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("ZONECHECK_EVAL_N"))
	if err != nil || n <= 0 {
		t.Skip("a measurement: set ZONECHECK_EVAL_N (docs/accuracy-fraud.md uses 20)")
	}
	c := newChecker(t)
	// flat scans: the zone reader and the visual fields are measured on
	// photos in docs/accuracy-extraction.md
	mk, err := tamper.NewScans(2, []string{"passport_main"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var report strings.Builder
	fmt.Fprintln(&report, "| kind | samples | with a finding | finding on the altered field |")
	fmt.Fprintln(&report, "|---|---|---|---|")
	for _, kind := range []string{tamper.Clean, tamper.AlterField} {
		made, flagged, right := 0, 0, 0
		for i := 0; made < n && i < 4*n; i++ {
			s, err := mk.Make(ctx, i, kind)
			if err != nil {
				if strings.Contains(err.Error(), "no room") {
					continue
				}
				t.Fatal(err)
			}
			made++
			crop := docCrop(t, s)
			fs, err := c.Check(ctx, crop, "passport_main")
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) > 0 {
				flagged++
			}
			for _, f := range fs {
				if f.Box.Overlaps(s.Box) { // both in page pixels: the crop keeps them
					right++
					break
				}
			}
			for _, f := range fs {
				t.Logf("%s %d: %s: %s", kind, i, f.Kind, f.Message())
			}
		}
		fmt.Fprintf(&report, "| %s | %d | %d | %d |\n", kind, made, flagged, right)
	}
	t.Log("\n" + report.String())
}

// TestRealdataUntouched runs the zone check on every real file of a type
// with a zone whose manifest notes do not say it was edited (the first
// page as one upright document) and fails on any finding.
func TestRealdataUntouched(t *testing.T) {
	f, err := os.Open(filepath.Join(realdata, "manifest.csv"))
	if err != nil {
		t.Skip("no real data: " + err.Error())
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	c := newChecker(t)
	ctx := context.Background()
	checked, zones := 0, 0
	for _, row := range rows[1:] {
		if strings.Contains(strings.ToLower(row[6]), "edited") || !strings.Contains(row[4], "passport") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(realdata, row[0]))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := decode.Open(ctx, data, decode.Options{DPI: 150, Quality: 90, PDFRawImages: true, AutoPDFRawImages: true, MaxPages: 1, MaxPixels: 100e6})
		if err != nil {
			t.Logf("%s: %v", row[0], err)
			continue
		}
		page, err := doc.Page(ctx, 0)
		doc.Close()
		if err != nil {
			t.Fatal(err)
		}
		docType, _, _ := strings.Cut(row[4], ";")
		checked++
		if rd, err := c.rd.Read(ctx, page); err == nil && rd != nil {
			zones++
			t.Logf("%s: zone read with confidence %.3f, %d corrected, failed %v", row[0], rd.Confidence, rd.Corrected, rd.Failed())
		}
		fs, err := c.Check(ctx, page, docType)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			t.Errorf("%s: %s: %s", row[0], f.Kind, f.Message())
		}
	}
	t.Logf("%d real passport files checked, %d with a zone found", checked, zones)
}
