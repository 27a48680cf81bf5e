// Command tamper measures the forgery signs of package fraud on the
// synthetic tampering set (package synth/tamper) and calibrates their
// confidences.
//
//	go run ./tools/tamper -n 24                 measure with the shipped calibration
//	go run ./tools/tamper -n 24 -fit            fit on one set, measure on another,
//	                                            write pkg/fraud/calibration.json
//	go run ./tools/tamper -n 20 -seed 0 -splice-min 2 -photo-min 0.001 -dump DIR
//	                                            every candidate of the fitting set
//	                                            (seed 1), to choose thresholds
//
// Each run generates two sets of n samples of every kind (clean,
// clean_resized, clean_enlarged, clean_cropped, copy_move, paste_field, replace_photo,
// editor_resave): the fitting set
// from -seed and the test set from -seed+1. The pixel checks run on the
// document's ground-truth outline, so the figures are those of the signs
// alone, not of the cropper.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"docsuite/pkg/decode"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/fraud"
	"docsuite/pkg/synth/tamper"
)

// kindsFor are the kinds of tampering each sign type is meant to catch.
var kindsFor = map[string][]string{
	fraud.EditorMetadata: {tamper.EditorResave},
	fraud.CopyMove:       {tamper.CopyMove},
	fraud.Splicing:       {tamper.PasteField, tamper.ReplacePhoto},
	fraud.PhotoBox:       {tamper.ReplacePhoto},
}

// meantFor reports whether sign type t is meant to catch kind.
func meantFor(t, kind string) bool {
	for _, k := range kindsFor[t] {
		if k == kind {
			return true
		}
	}
	return false
}

// dumpDir, when set, receives the samples and their signs.
var dumpDir string

// result is the analysis of one sample.
type result struct {
	kind   string
	signs  []fraud.Sign
	truths []bool // per sign: it marks the real tampering
	ms     float64
}

func main() {
	n := flag.Int("n", 24, "samples of every kind per set")
	seed := flag.Uint64("seed", 1, "seed of the fitting set; the test set uses seed+1")
	fit := flag.Bool("fit", false, "fit the calibration on the fitting set and write it to -cal")
	calPath := flag.String("cal", "pkg/fraud/calibration.json", "calibration file written by -fit")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "parallel workers")
	spliceMin := flag.Float64("splice-min", 0, "smallest splicing strength reported (0: the detector's default); lower it to see the candidates a threshold is chosen from")
	photoMin := flag.Float64("photo-min", fraud.DefaultPhotoMinStrength, "smallest photo-box grid strength reported; lower it (0.001) to see the candidates a threshold is chosen from")
	flag.StringVar(&dumpDir, "dump", "", "write every test sample (JPEG) and its candidate signs (JSON) into this folder")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, *n, *seed, *fit, *calPath, *workers, *spliceMin, *photoMin); err != nil {
		fmt.Fprintln(os.Stderr, "tamper:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, n int, seed uint64, fit bool, calPath string, workers int, spliceMin, photoMin float64) error {
	an, err := fraud.New("")
	if err != nil {
		return err
	}
	fc, err := fakecheck.New()
	if err != nil {
		return err
	}
	an.MinConfidence = 0
	an.Splice.MinStrength = spliceMin
	an.PhotoMinStrength = photoMin
	cal, err := fraud.DefaultCalibration()
	if err != nil {
		return err
	}
	if fit {
		fitSet, err := analyse(ctx, an, fc, seed, n, workers)
		if err != nil {
			return err
		}
		cal = fitCalibration(fitSet, cal, seed, n)
		raw, err := json.MarshalIndent(cal, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(calPath, append(raw, '\n'), 0o644); err != nil {
			return fmt.Errorf("write calibration: %w", err)
		}
		fmt.Fprintf(os.Stderr, "tamper: wrote %s\n", calPath)
	}
	test, err := analyse(ctx, an, fc, seed+1, n, workers)
	if err != nil {
		return err
	}
	report(w, test, cal, seed+1, n)
	return nil
}

// analyse generates a set and runs the checks on every sample, the
// metadata checked by fc.
func analyse(ctx context.Context, an *fraud.Analyzer, fc *fakecheck.Checker, seed uint64, n, workers int) ([]result, error) {
	mk, err := tamper.New(seed, nil)
	if err != nil {
		return nil, err
	}
	type job struct {
		kind string
		i    int
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var out []result
	var firstErr error
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r, err := one(ctx, an, fc, mk, j.kind, j.i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil && r != nil {
					out = append(out, *r)
				}
				mu.Unlock()
			}
		}()
	}
	for _, kind := range tamper.Kinds {
		for i := 0; i < n; i++ {
			select {
			case jobs <- job{kind, i}:
			case <-ctx.Done():
			}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, ctx.Err()
}

// one makes and checks one sample; a scene without room for the kind of
// tampering is tried with the next index.
func one(ctx context.Context, an *fraud.Analyzer, fc *fakecheck.Checker, mk *tamper.Maker, kind string, i int) (*result, error) {
	var s *tamper.Sample
	var err error
	for k := 0; k < 5; k++ {
		if s, err = mk.Make(ctx, i+k*10000, kind); err == nil {
			break
		}
		if !strings.Contains(err.Error(), "no room") {
			return nil, err
		}
	}
	if err != nil {
		return nil, nil // counted by its absence
	}
	doc, err := decode.Open(ctx, s.JPEG, decode.Options{MaxPages: 1, MaxPixels: 100e6})
	if err != nil {
		return nil, err
	}
	defer doc.Close()
	page, err := doc.Page(ctx, 0)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	signs := an.Metadata(fc.Check(s.JPEG), s.Doc.Quad.Ints())
	pix, err := an.Document(ctx, page, s.Doc.Quad, s.Doc.Rotation, fraud.Source{Type: s.Doc.Type})
	if err != nil {
		return nil, err
	}
	signs = append(signs, pix...)
	r := &result{kind: kind, signs: signs, ms: float64(time.Since(start).Microseconds()) / 1000}
	for _, sg := range signs {
		r.truths = append(r.truths, real(s, sg))
	}
	if dumpDir != "" {
		if err := dump(s, i, r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// dump writes a sample and its candidates into dumpDir.
func dump(s *tamper.Sample, i int, r *result) error {
	if err := os.MkdirAll(dumpDir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dumpDir, fmt.Sprintf("%s_%03d", s.Kind, i))
	type cand struct {
		fraud.Sign
		Strength float64 `json:"strength"`
		Real     bool    `json:"real"`
	}
	info := struct {
		Kind   string          `json:"kind"`
		Type   string          `json:"type"`
		Box    image.Rectangle `json:"box"`
		Source image.Rectangle `json:"source"`
		Signs  []cand          `json:"signs"`
	}{Kind: s.Kind, Type: s.Doc.Type, Box: s.Box, Source: s.Source}
	for k, sg := range r.signs {
		info.Signs = append(info.Signs, cand{Sign: sg, Strength: sg.Strength, Real: r.truths[k]})
	}
	raw, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(base+".json", raw, 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".jpg", s.JPEG, 0o644)
}

// real reports whether a sign marks the sample's real tampering: editor
// metadata on a re-saved file, a pixel sign over the tampered region.
func real(s *tamper.Sample, sg fraud.Sign) bool {
	if sg.Type == fraud.EditorMetadata {
		return s.Kind == tamper.EditorResave
	}
	if s.Box.Empty() {
		return false
	}
	c := sg.Coords
	box := image.Rect(c[0][0], c[0][1], c[3][0], c[3][1])
	in := box.Intersect(s.Box)
	if in.Empty() {
		in = box.Intersect(s.Source) // a copy-move names both regions; either is right
		if in.Empty() {
			return false
		}
	}
	a := float64(in.Dx() * in.Dy())
	return a >= 0.3*float64(box.Dx()*box.Dy()) || a >= 0.3*float64(s.Box.Dx()*s.Box.Dy())
}

// fitCalibration fits one logistic function per pixel sign type on the
// candidates of the fitting set; editor metadata gets the smoothed share
// of its signs that were real. The enlarged clean files (a kind added
// after the shipped calibration was fitted) are measured, not fitted on,
// so that the documented fit stays reproducible.
func fitCalibration(all []result, old fraud.Calibration, seed uint64, n int) fraud.Calibration {
	var set []result
	for _, r := range all {
		if r.kind != tamper.CleanEnlarged {
			set = append(set, r)
		}
	}
	xs := map[string][]float64{}
	ys := map[string][]bool{}
	for _, r := range set {
		for i, s := range r.signs {
			xs[s.Type] = append(xs[s.Type], s.Strength)
			ys[s.Type] = append(ys[s.Type], r.truths[i])
		}
	}
	cal := fraud.Calibration{Source: fmt.Sprintf("tools/tamper -fit -seed %d -n %d: logistic fit of each sign's statistic on the synthetic tampering set (%d samples)", seed, n, len(set)),
		Signs: map[string]fraud.Logistic{}}
	for t, l := range old.Signs {
		cal.Signs[t] = l
		if len(xs[t]) > 0 {
			cal.Signs[t] = fraud.FitLogistic(xs[t], ys[t])
		}
	}
	return cal
}

// report writes the measurement as Markdown.
func report(w io.Writer, set []result, cal fraud.Calibration, seed uint64, n int) {
	fmt.Fprintf(w, "Test set: seed %d, %d samples of each kind asked, %d made.\n\n", seed, n, len(set))
	fmt.Fprintln(w, "| sign | fired (conf >= 0.5) | real | precision | recall on its kinds | samples of its kinds |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	var types []string
	for _, t := range fraud.SignTypes {
		if kindsFor[t] != nil { // the zone check needs the text models: measured by its own package
			types = append(types, t)
		}
	}
	for _, t := range types {
		fired, real, hit, kindN := 0, 0, 0, 0
		for _, r := range set {
			found := false
			for i, s := range r.signs {
				if s.Type != t || cal.Confidence(t, s.Strength) < 0.5 {
					continue
				}
				fired++
				if r.truths[i] {
					real++
					found = true
				}
			}
			if meantFor(t, r.kind) {
				kindN++
				if found {
					hit++
				}
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %d (%s) |\n", t, fired, real, ratio(real, fired), ratio(hit, kindN), kindN, strings.Join(kindsFor[t], ", "))
	}
	fmt.Fprintln(w, "\n| kind | samples | verdict suspicious | mean score | mean time (ms) |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	kinds := append([]string(nil), tamper.Kinds...)
	sort.Strings(kinds)
	for _, k := range kinds {
		m, sus := 0, 0
		var score, ms float64
		for _, r := range set {
			if r.kind != k {
				continue
			}
			signs := make([]fraud.Sign, 0, len(r.signs))
			for _, s := range r.signs {
				s.Confidence = cal.Confidence(s.Type, s.Strength)
				if s.Confidence >= 0.05 {
					signs = append(signs, s)
				}
			}
			res := fraud.Judge(signs)
			m++
			score += res.Score
			ms += r.ms
			if res.Verdict == fraud.Suspicious {
				sus++
			}
		}
		if m == 0 {
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %d (%s) | %.3f | %.0f |\n", k, m, sus, ratio(sus, m), score/float64(m), ms/float64(m))
	}
	fmt.Fprintln(w, "\nCalibration:", cal.Source)
	for _, t := range types {
		l := cal.Signs[t]
		fmt.Fprintf(w, "- %s: confidence = 1 / (1 + exp(-(%.3f + %.3f * statistic)))\n", t, l.A, l.B)
	}
}

func ratio(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}
