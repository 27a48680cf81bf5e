package fraud

import (
	"bytes"
	"context"
	"encoding/csv"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/decode"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/fraud/splice"
	"docsuite/pkg/geom"
	"docsuite/pkg/testutil"
)

// realdata holds real photos and scans (evaluation only), when present.
const realdata = "../../../shared/realdata"

// pageQuad is the whole page as one upright document.
func pageQuad(b image.Rectangle) geom.Quad {
	x0, y0, x1, y1 := float64(b.Min.X), float64(b.Min.Y), float64(b.Max.X), float64(b.Max.Y)
	return geom.Quad{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}}
}

// isDjVu reports whether data is a DjVu file.
func isDjVu(data []byte) bool {
	f, err := decode.Sniff(data)
	return err == nil && f == decode.DJVU
}

// newMetaChecker builds check_fake's metadata checker or stops the test.
func newMetaChecker(t testing.TB) *fakecheck.Checker {
	t.Helper()
	fc, err := fakecheck.New()
	if err != nil {
		t.Fatal(err)
	}
	return fc
}

// checkFile runs every check on the first pages of a file, each page as
// one document of type docType, and returns the results.
func checkFile(t *testing.T, an *Analyzer, fc *fakecheck.Checker, data []byte, docType string) []Result {
	res, _ := checkFileMargin(t, an, fc, data, docType)
	return res
}

// checkFileMargin is checkFile that also returns the strongest splicing
// candidate of the pages at a tenth of the reporting threshold, to show
// how far genuine files stay below it.
func checkFileMargin(t *testing.T, an *Analyzer, fc *fakecheck.Checker, data []byte, docType string) ([]Result, float64) {
	t.Helper()
	ctx := context.Background()
	doc, err := decode.Open(ctx, data, decode.Options{DPI: 150, Quality: 90, PDFRawImages: true, AutoPDFRawImages: true, MaxPages: 100, MaxPixels: 100e6})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	meta := fc.Check(data)
	var out []Result
	margin := 0.0
	for i := 0; i < min(doc.Pages(), 3); i++ {
		page, err := doc.Page(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		q := pageQuad(page.Bounds())
		signs := an.Metadata(meta, q.Ints())
		pix, err := an.Document(ctx, page, q, 0, Source{SharedShapes: isDjVu(data), Type: docType})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Judge(append(signs, pix...)))
		opt := an.Splice
		opt.MinStrength = 1
		cands, err := splice.Detect(ctx, page, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cands {
			margin = max(margin, c.Strength)
		}
	}
	return out, margin
}

// TestRealScanTampered copies a region of a real passport scan onto
// itself, and re-saves the scan with an editor's metadata: both must come
// back suspicious with the right sign at the right place; the untouched
// scan must come back clean.
func TestRealScanTampered(t *testing.T) {
	scan := filepath.Join(realdata, "SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg")
	data, err := os.ReadFile(scan)
	if err != nil {
		t.Skip("no real data: " + err.Error())
	}
	testutil.Need(t, "exiftool")
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	// the date-of-birth line with its label, onto the lower left corner
	src := image.Rect(b.Dx()*45/100, b.Dy()*64/100, b.Dx()*80/100, b.Dy()*71/100)
	dst := image.Pt(b.Dx()*8/100, b.Dy()*82/100)
	moved := testutil.CopyRegionJPEG(t, img, src, dst)
	dir := t.TempDir()
	edited := filepath.Join(dir, "edited.jpg")
	if err := os.WriteFile(edited, data, 0o600); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, dir, "exiftool", "-q", "-overwrite_original", "-Software=Adobe Photoshop CC 2019 (Windows)", "edited.jpg")
	resaved, err := os.ReadFile(edited)
	if err != nil {
		t.Fatal(err)
	}
	an, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	fc := newMetaChecker(t)
	cases := []struct {
		name     string
		data     []byte
		verdict  string
		sign     string
		where    image.Rectangle // the sign's region must overlap it; empty: anywhere
		elsewise image.Rectangle
	}{
		{"untouched", data, Clean, "", image.Rectangle{}, image.Rectangle{}},
		{"region copied onto itself", moved, Suspicious, CopyMove, image.Rectangle{Min: dst, Max: dst.Add(src.Size())}, src},
		{"re-saved with an editor's metadata", resaved, Suspicious, EditorMetadata, image.Rectangle{}, image.Rectangle{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := checkFile(t, an, fc, c.data, "passport_main")[0]
			if r.Verdict != c.verdict {
				t.Fatalf("verdict %s (score %v, signs %+v), want %s", r.Verdict, r.Score, r.Signs, c.verdict)
			}
			if c.sign == "" {
				return
			}
			for _, s := range r.Signs {
				if s.Type != c.sign || s.Confidence < Threshold {
					continue
				}
				box := image.Rect(s.Coords[0][0], s.Coords[0][1], s.Coords[3][0], s.Coords[3][1])
				if c.where.Empty() || box.Overlaps(c.where) || box.Overlaps(c.elsewise) {
					t.Logf("%s: %s", s.Type, s.Message)
					return
				}
			}
			t.Fatalf("no confident %s sign at %v: %+v", c.sign, c.where, r.Signs)
		})
	}
}

// knownRepeats are untouched real files whose pages genuinely hold the
// same pixels twice, with why. Here each page is checked as one document;
// the fraud worker checks every document the cropper finds on its own.
var knownRepeats = map[string]string{
	"PassportEye/tests__data__pdf-with-pngjpg.pdf": "the page shows the same passport picture twice (a PNG and a JPEG of it); the worker checks them as two documents and finds nothing",
}

// TestRealdataUntouched runs the checks over every real file whose
// manifest notes do not say it was edited, each page as one document of
// the file's first expected type (so that the form's photo box is checked
// too, wherever it falls on the page), and reports every file that does
// not come back clean, with its signs. It fails when a pixel check (not
// the metadata) marks an untouched file other than the known ones. It
// also logs the strongest splicing candidate over all files, found at a
// tenth of the reporting threshold.
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
	an, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	fc := newMetaChecker(t)
	files, clean, meta, pixel := 0, 0, 0, 0
	strongest, strongestFile := 0.0, ""
	for _, row := range rows[1:] {
		if strings.Contains(strings.ToLower(row[6]), "edited") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(realdata, row[0]))
		if err != nil {
			t.Fatal(err)
		}
		files++
		bad := ""
		docType, _, _ := strings.Cut(row[4], ";")
		results, margin := checkFileMargin(t, an, fc, data, docType)
		if margin > strongest {
			strongest, strongestFile = margin, row[0]
		}
		for _, r := range results {
			if r.Verdict == Clean {
				continue
			}
			for _, s := range r.Signs {
				if s.Confidence >= Threshold {
					bad += " " + s.Type + ": " + s.Message + ";"
					if s.Type != EditorMetadata && !strings.Contains(bad, "[pixel]") {
						bad += " [pixel]"
					}
				}
			}
		}
		switch {
		case bad == "":
			clean++
		case strings.Contains(bad, "[pixel]") && knownRepeats[row[0]] != "":
			pixel++
			t.Logf("%s: suspicious by its pixels (known: %s):%s", row[0], knownRepeats[row[0]], bad)
		case strings.Contains(bad, "[pixel]"):
			pixel++
			t.Errorf("%s: suspicious by its pixels:%s", row[0], bad)
		default:
			meta++
			t.Logf("%s: suspicious by its metadata:%s", row[0], bad)
		}
	}
	t.Logf("%d untouched files: %d clean, %d suspicious by editor metadata, %d by their pixels", files, clean, meta, pixel)
	t.Logf("strongest splicing candidate: %.2f (%s); reported from %.2f", strongest, strongestFile, splice.DefaultMinStrength)
}
