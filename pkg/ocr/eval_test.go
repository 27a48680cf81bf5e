package ocr

import (
	"context"
	"fmt"
	"image"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/otiai10/gosseract/v2"

	"docsuite/pkg/crop"
	"docsuite/pkg/geom"
	"docsuite/pkg/mrz"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/orient"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/synth"
)

// TestEvalFulltext measures full-text OCR on the document factory's pages,
// whose printed field values are known: the share of those values' words
// found among the words read (word recall), per page segmentation mode
// and shooting condition. Set FULLTEXT_EVAL_N (pages per condition);
// FULLTEXT_EVAL_OUT writes the Markdown report; FULLTEXT_EVAL_COND names
// one condition to run alone ("photos", "scans", ...).
func TestEvalFulltext(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("FULLTEXT_EVAL_N"))
	if err != nil || n <= 0 {
		t.Skip("a measurement: set FULLTEXT_EVAL_N (make eval uses 40)")
	}
	e, err := New(1)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cropper, err := crop.OpenNeural(crop.NeuralConfig{Dir: "models", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer cropper.Close()
	orienter, err := orient.Open(orient.Options{Dir: "models", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer orienter.Close()
	rt, err := onnxrt.Open(onnxrt.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	text, err := ppocr.Open(rt, "")
	if err != nil {
		t.Fatal(err)
	}
	defer text.Close()
	zones := mrz.NewReader(text).WithSecondReading() // as the OCR worker reads zones
	cutFirst := func(ctx context.Context, img image.Image) (Page, error) {
		found, err := cropper.Find(ctx, img)
		if err != nil || len(found) == 0 {
			return e.ReadZoned(ctx, img, zones)
		}
		cuts := make([]Cut, len(found))
		for i, f := range found {
			c, err := crop.Warp(img, f.Quad)
			if err != nil {
				return Page{}, err
			}
			r, _, err := orienter.Orient(ctx, c)
			if err != nil {
				return Page{}, err
			}
			cuts[i] = Cut{Quad: f.Quad, Img: c, Turns: r.Turns()}
		}
		return e.ReadDocuments(ctx, img, cuts, zones)
	}
	psm := func(m gosseract.PageSegMode) func(context.Context, image.Image) (Page, error) {
		return func(ctx context.Context, img image.Image) (Page, error) { return e.read(ctx, img, m) }
	}
	modes := []struct {
		name string
		read func(context.Context, image.Image) (Page, error)
	}{
		{"**as served: documents cut out by the neural cropper, turned as the orienter says, each read as below (ReadDocuments), zones by the zone reader**", cutFirst},
		{"page read whole (Read): as it lies, turned when illegible", e.Read},
		{"6 single block, as it lies", psm(gosseract.PSM_SINGLE_BLOCK)},
		{"1 auto with orientation", psm(gosseract.PSM_AUTO_OSD)},
		{"11 sparse text", psm(gosseract.PSM_SPARSE_TEXT)},
	}
	// Scans: a flat scan of one document cut to it with a margin, as a
	// user uploads a scanned card or page (the factory's scan scenes lay a
	// document on a larger bed, hence the size). Photos: the whole photo,
	// one document lying on its background at a slant, as shot, upright
	// or turned on the table a quarter or half.
	conds := []struct {
		name string
		size int
		scan float64
		cut  bool
		turn float64
	}{
		{"scans", 3600, 1, true, 0},
		{"scans turned a quarter or half", 3600, 1, true, 2},
		{"photos", 1600, -1, false, 0},
		{"photos of documents turned a quarter or half", 1600, -1, false, 2},
	}
	var report strings.Builder
	report.WriteString("| condition | mode | value words found | zone lines exact | pages | seconds a page (one core) |\n|---|---|---|---|---|---|\n")
	for _, c := range conds {
		if only := os.Getenv("FULLTEXT_EVAL_COND"); only != "" && c.name != only {
			continue
		}
		fx := synth.DefaultEffects()
		fx.Turn, fx.Mirror = c.turn, 0
		g, err := synth.New(synth.Config{Seed: 777001, Size: c.size, MinDocs: 1, MaxDocs: 1, ScanProb: c.scan, Effects: fx})
		if err != nil {
			t.Fatal(err)
		}
		type page struct {
			img   image.Image
			words []string
			zone  []string // the machine-readable zone's lines, words of their own
		}
		var pages []page
		for i := 0; len(pages) < n; i++ {
			s, err := g.Scene(context.Background(), i)
			if err != nil {
				t.Fatal(err)
			}
			var words, zone []string
			for _, d := range s.Docs {
				for k, v := range d.Fields {
					words = append(words, tokens(v)...)
					if strings.HasPrefix(k, "mrz_") {
						zone = append(zone, tokens(v)...)
					}
				}
			}
			if len(words) == 0 {
				continue
			}
			var img image.Image = s.Img
			if c.cut {
				img = cutOut(s.Img, s.Docs[0].Lying)
			}
			pages = append(pages, page{img, words, zone})
		}
		// Every mode reads a page before the next page is read, so that
		// the times compare (run one mode after another over all pages,
		// the first mode measured up to 0.5 s a page slower than the same
		// reading interleaved).
		found := make([]int, len(modes))
		zoneFound := make([]int, len(modes))
		spent := make([]time.Duration, len(modes))
		total, zones := 0, 0
		for _, p := range pages {
			for i, m := range modes {
				start := time.Now()
				got, err := m.read(context.Background(), p.img)
				if err != nil {
					t.Fatal(err)
				}
				spent[i] += time.Since(start)
				found[i] += recall(p.words, tokens(got.Text))
				zoneFound[i] += recall(p.zone, tokens(got.Text))
			}
			total += len(p.words)
			zones += len(p.zone)
		}
		for i, m := range modes {
			fmt.Fprintf(&report, "| %s | %s | %.1f %% (%d/%d) | %d/%d | %d | %.2f |\n", c.name, m.name,
				100*float64(found[i])/float64(total), found[i], total, zoneFound[i], zones, len(pages), spent[i].Seconds()/float64(len(pages)))
		}
	}
	t.Log("\n" + report.String())
	if out := os.Getenv("FULLTEXT_EVAL_OUT"); out != "" {
		doc := "# Full-text OCR on the factory's pages (generated)\n\n" +
			"Written by `make eval` (`FULLTEXT_EVAL_N=40 FULLTEXT_EVAL_OUT=... go test ./pkg/ocr -run EvalFulltext`)" +
			" with the code and the document factory of the commit that holds this file. Each page holds one" +
			" document of any type; its printed values (the factory's fields) are the truth, and a value's word" +
			" counts as found when the page's text holds it (upper-cased, surrounding punctuation dropped, each" +
			" word of the text used once); \"zone lines exact\" counts the machine-readable zones' lines found whole." +
			" The row in bold is what `/pipelines/run/fulltext` does (the neural" +
			" cropper's time included); \"page read whole\" is what it does on a page where no document is found;" +
			" the others are Tesseract's page segmentation modes on the page as it lies. What the figures mean:" +
			" [accuracy-fulltext.md](accuracy-fulltext.md).\n\n" + report.String()
		if err := os.WriteFile(out, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cutOut is the part of img around q with a margin of 3 % of q's size.
func cutOut(img *image.RGBA, q geom.Quad) image.Image {
	r := q.FracBounds([4]float64{0, 0, 1, 1})
	m := max(r.Dx(), r.Dy()) * 3 / 100
	return img.SubImage(r.Inset(-m).Intersect(img.Rect))
}

// read recognises the text of img as it lies in page segmentation mode
// psm, the modes Read is compared with.
func (e *Engine) read(ctx context.Context, img image.Image, psm gosseract.PageSegMode) (Page, error) {
	w, err := e.acquire(ctx)
	if err != nil {
		return Page{}, err
	}
	defer func() { e.idle <- w }()
	return readTurned(ctx, w.c, img, 0, psm)
}

// tokens splits text into upper-case words without surrounding
// punctuation.
func tokens(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '/' }) {
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if f != "" {
			out = append(out, strings.ToUpper(f))
		}
	}
	return out
}

// recall counts the words of want found in got, each word of got used
// once.
func recall(want, got []string) int {
	left := map[string]int{}
	for _, w := range got {
		left[w]++
	}
	keys := append([]string(nil), want...)
	sort.Strings(keys)
	n := 0
	for _, w := range keys {
		if left[w] > 0 {
			left[w]--
			n++
		}
	}
	return n
}
