package main

import (
	"context"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"docsuite/pkg/crop"
	"docsuite/pkg/decode"
	"docsuite/pkg/geom"
)

// cropper is one cropper under evaluation: it returns the document quads
// of a page (none: the whole page is the one item, as the service does).
type cropper struct {
	name string
	find func(ctx context.Context, page image.Image) ([]geom.Quad, error)
}

// cropResults accumulates one cropper's results over a set.
type cropResults struct {
	Name                           string
	Files, Pages, Failed           int
	Truth, Found, Missed, Spurious int
	Predictions                    int
	// LaterPages counts the pages after a file's first, whose first item
	// is set aside (see score).
	LaterPages  int
	missedQuads int
	IoUs        []float64
	// IoUFiles holds the file of each of IoUs: the units resampled for
	// the mean IoU's interval.
	IoUFiles []string
	Times    []time.Duration
	// Notes lists every file with a miss or a spurious item.
	Notes []string
	// Loose lists every document found with an IoU under looseIoU.
	Loose []string
}

// looseIoU is the IoU under which a found document is listed as cut
// loosely.
const looseIoU = 0.9

// cropSet is the evaluation of every cropper on one labelled set.
type cropSet struct {
	Name    string
	Results []*cropResults
}

// openCroppers builds the croppers compared: the neural one as the
// service runs it, the same with one look only (neither the second look at
// the part holding all the interior nor a closer look at a faint region),
// without the full-resolution refinement and with each region's enclosing
// quadrilateral kept (no search for its straight sides), and the simple
// one.
func openCroppers(modelsDir string) ([]cropper, func(), error) {
	nn, err := crop.OpenNeural(crop.NeuralConfig{Dir: modelsDir, Threads: 1})
	if err != nil {
		return nil, nil, err
	}
	raw, err := crop.OpenNeural(crop.NeuralConfig{Dir: modelsDir, Threads: 1, Options: crop.NeuralOptions{NoRefine: true}})
	if err != nil {
		_ = nn.Close()
		return nil, nil, err
	}
	one, err := crop.OpenNeural(crop.NeuralConfig{Dir: modelsDir, Threads: 1, Options: crop.NeuralOptions{ZoomMin: -1, DoubtLooks: -1}})
	if err != nil {
		_ = nn.Close()
		_ = raw.Close()
		return nil, nil, err
	}
	encl, err := crop.OpenNeural(crop.NeuralConfig{Dir: modelsDir, Threads: 1, Options: crop.NeuralOptions{NoSides: true}})
	if err != nil {
		_ = nn.Close()
		_ = raw.Close()
		_ = one.Close()
		return nil, nil, err
	}
	quads := func(fs []crop.Found, err error) ([]geom.Quad, error) {
		out := make([]geom.Quad, len(fs))
		for i, f := range fs {
			out[i] = f.Quad
		}
		return out, err
	}
	cs := []cropper{
		{"neural", func(ctx context.Context, p image.Image) ([]geom.Quad, error) { return quads(nn.Find(ctx, p)) }},
		{"neural, one look", func(ctx context.Context, p image.Image) ([]geom.Quad, error) { return quads(one.Find(ctx, p)) }},
		{"neural, no refinement", func(ctx context.Context, p image.Image) ([]geom.Quad, error) { return quads(raw.Find(ctx, p)) }},
		{"neural, enclosing quads", func(ctx context.Context, p image.Image) ([]geom.Quad, error) { return quads(encl.Find(ctx, p)) }},
		{"simple", func(_ context.Context, p image.Image) ([]geom.Quad, error) {
			return quads(crop.Simple(p, crop.SimpleOptions{}))
		}},
	}
	return cs, func() { _ = nn.Close(); _ = raw.Close(); _ = one.Close(); _ = encl.Close() }, nil
}

// evaluateCroppers runs every cropper on every page of every case, in
// this process, timing only the cropper itself.
func evaluateCroppers(ctx context.Context, name string, cases []testCase, cs []cropper) *cropSet {
	set := &cropSet{Name: name}
	for _, c := range cs {
		set.Results = append(set.Results, &cropResults{Name: c.name})
	}
	for i, tc := range cases {
		fmt.Fprintf(os.Stderr, "\r[%d/%d] %s", i+1, len(cases), tc.Path)
		pages, err := decodePages(ctx, tc.Path)
		for j, c := range cs {
			r := set.Results[j]
			r.Files++
			if err != nil {
				r.Failed++
				r.Notes = append(r.Notes, fmt.Sprintf("%s: not decoded (%v)", rel(tc.Path), err))
				continue
			}
			var items [][]geom.Quad
			for _, p := range pages {
				runtime.GC() // keep collection out of the timed call
				start := time.Now()
				qs, err := c.find(ctx, p)
				el := time.Since(start)
				if err != nil {
					r.Failed++
					r.Notes = append(r.Notes, fmt.Sprintf("%s: %v", rel(tc.Path), err))
					qs = nil
				}
				r.Times = append(r.Times, el)
				r.Pages++
				if len(qs) == 0 {
					b := p.Bounds()
					qs = []geom.Quad{crop.WholePage(b.Dx(), b.Dy())}
				}
				items = append(items, qs)
			}
			r.score(tc, items)
		}
	}
	fmt.Fprintln(os.Stderr)
	return set
}

// decodePages decodes every page of a file as the service does (300 dpi,
// embedded scans as they are).
func decodePages(ctx context.Context, path string) ([]image.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeData(ctx, data)
}

// decodeData decodes every page of a file's bytes as the service does:
// EXIF orientation applied, PDFs at 300 dpi with embedded scans as they are.
func decodeData(ctx context.Context, data []byte) ([]image.Image, error) {
	doc, err := decode.Open(ctx, data, decode.Options{PDFRawImages: true, AutoPDFRawImages: true})
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	var out []image.Image
	for i := 0; i < doc.Pages(); i++ {
		p, err := doc.Page(ctx, i)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", i+1, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// score matches one file's items with its truth: by quad IoU (>= 0.5) on
// the first page where the truth has quads, by count where it has only
// types (the manifest says how many documents, not where). The labelled
// documents lie on the first page (see laterPageExtras).
func (r *cropResults) score(tc testCase, pages [][]geom.Quad) {
	n := len(pages[0])
	for _, p := range pages[1:] {
		r.LaterPages++
		n += laterPageExtras(len(p))
	}
	r.Predictions += n
	r.Truth += len(tc.Docs)
	withQuads := len(tc.Docs) > 0 && tc.Docs[0].Quad != nil
	if !withQuads {
		found := min(n, len(tc.Docs))
		r.Found += found
		r.Missed += len(tc.Docs) - found
		r.Spurious += n - found
		if n != len(tc.Docs) {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %d items for %d documents", rel(tc.Path), n, len(tc.Docs)))
		}
		return
	}
	items := pages[0]
	used := make([]bool, len(items))
	var missed []string
	for _, td := range tc.Docs {
		best, bi := 0.0, -1
		for j, q := range items {
			if v := geom.IoU(truthQuad(*td.Quad), q); !used[j] && v > best {
				best, bi = v, j
			}
		}
		if bi < 0 || best < iouMatch {
			r.Missed++
			r.missedQuads++
			missed = append(missed, fmt.Sprintf("%s (best IoU %.2f)", td.Type, best))
			continue
		}
		used[bi] = true
		r.Found++
		r.IoUs = append(r.IoUs, best)
		r.IoUFiles = append(r.IoUFiles, tc.Path)
		if best < looseIoU {
			r.Loose = append(r.Loose, fmt.Sprintf("%s: %s (IoU %.2f)", rel(tc.Path), td.Type, best))
		}
	}
	spurious := n - (len(tc.Docs) - len(missed))
	r.Spurious += spurious
	if len(missed) > 0 || spurious > 0 {
		note := fmt.Sprintf("%s: %d items for %d documents", rel(tc.Path), n, len(tc.Docs))
		if len(missed) > 0 {
			note += "; missed " + strings.Join(missed, ", ")
		}
		r.Notes = append(r.Notes, note)
	}
}

// laterPageExtras is how many of the items answered for a page after a
// file's first are scored, as spurious. The manifest labels what its
// multi-page files show on their first page, or one document over all
// pages (a 10-page invoice); the service answers every page with at least
// one item (the page itself when nothing is cut), so a later page's first
// item is set aside and only its further items are counted.
func laterPageExtras(items int) int {
	return max(0, items-1)
}

func truthQuad(q [4]pt) geom.Quad {
	var g geom.Quad
	for i, p := range q {
		g[i] = geom.Point{X: p.X, Y: p.Y}
	}
	return g
}

// rel shortens a path to its last two elements for the report.
func rel(p string) string {
	d, f := filepath.Split(p)
	return filepath.Join(filepath.Base(d), f)
}

func pct(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f %% (%d/%d)", 100*float64(a)/float64(b), a, b)
}

// quantile of sorted durations in milliseconds.
func quantileMS(ts []time.Duration, q float64) float64 {
	if len(ts) == 0 {
		return math.NaN()
	}
	s := append([]time.Duration(nil), ts...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return float64(s[min(len(s)-1, int(q*float64(len(s))))].Microseconds()) / 1000
}

func meanOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// runCropEval evaluates the croppers on the given sets and writes the
// cropper report (stdout when out is empty).
func runCropEval(ctx context.Context, synthDir, realDir, modelsDir, out string) error {
	if synthDir == "" && realDir == "" {
		return fmt.Errorf("give -synth, -real or both")
	}
	cs, closeAll, err := openCroppers(modelsDir)
	if err != nil {
		return err
	}
	defer closeAll()
	var sets []*cropSet
	if synthDir != "" {
		cases, err := loadSynth(synthDir)
		if err != nil {
			return err
		}
		sets = append(sets, evaluateCroppers(ctx, "synthetic test set", cases, cs))
	}
	if realDir != "" {
		cases, err := loadReal(realDir)
		if err != nil {
			return err
		}
		sets = append(sets, evaluateCroppers(ctx, "real photos and scans", cases, cs))
	}
	note := fmt.Sprintf("Measured in one process by `go run ./tools/eval -crop` on %s (GOMAXPROCS %d, one ONNX Runtime thread); "+
		"a miss is a labelled document no item overlaps with IoU >= %.1f; where a file has no corners, items are counted against "+
		"the manifest's documents. No document found means the whole page is the one item, as the service answers.",
		time.Now().UTC().Format("2006-01-02"), runtime.GOMAXPROCS(0), iouMatch)
	if out == "" {
		tmp, err := os.CreateTemp("", "cropper-*.md")
		if err != nil {
			return err
		}
		tmp.Close()
		defer os.Remove(tmp.Name())
		out = tmp.Name()
		defer func() { b, _ := os.ReadFile(out); os.Stdout.Write(b) }()
	}
	return writeCropReport(out, sets, note)
}
