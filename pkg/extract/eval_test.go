package extract_test

import (
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/extract"
	"docsuite/pkg/subdivision"
)

// TestEvalSynthetic measures field-level exact match on synthetic
// passports from the document factory (their printed values are the
// truth) and the exact rate of MRZ lines, under two conditions. It is a
// measurement, run on demand: EXTRACT_EVAL_N sets the count per condition
// (the test is skipped without it), EXTRACT_EVAL_OUT a file for the
// Markdown tables (make eval writes docs/accuracy-extraction-current.md),
// EXTRACT_EVAL_SEED another seed than the reported one
// (to tune on), EXTRACT_EVAL_COND "scans" or "photos" one condition only,
// EXTRACT_EVAL_DUMP a folder to write every crop to as JPEG (named by
// condition and sample number, to look at the failures logged); the
// figures are in docs/accuracy-extraction.md.
func TestEvalSynthetic(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("EXTRACT_EVAL_N"))
	if err != nil || n <= 0 {
		t.Skip("a measurement: set EXTRACT_EVAL_N (docs/accuracy-extraction.md uses 40)")
	}
	x := newExtractor(t)
	dir, err := subdivision.Load("", false)
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	seed := uint64(20261123)
	if v, err := strconv.ParseUint(os.Getenv("EXTRACT_EVAL_SEED"), 10, 64); err == nil {
		seed = v
	}
	for _, c := range []condition{scans, photos} {
		if only := os.Getenv("EXTRACT_EVAL_COND"); only != "" && !strings.HasPrefix(c.name, only) {
			continue
		}
		fmt.Fprintf(&report, "## %s, seed %d\n\n%s\n", c.name, seed, evalCondition(t, x, dir, c, seed, n))
	}
	t.Log("\n" + report.String())
	if out := os.Getenv("EXTRACT_EVAL_OUT"); out != "" {
		doc := "# Passport extraction on the factory's passports (generated)\n\n" +
			"Written by `make eval` (`EXTRACT_EVAL_N=40 EXTRACT_EVAL_OUT=... go test ./pkg/extract -run EvalSynthetic`)" +
			" with the code and the document factory of the commit that holds this file, so the figures follow" +
			" the factory's changes. How the fields are read, what the figures mean and their history:" +
			" [accuracy-extraction.md](accuracy-extraction.md).\n\n" + report.String()
		if err := os.WriteFile(out, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// evalCondition extracts n passports shot under c and returns the
// Markdown table of exact rates. The fields are as read
// (use_internal_api=false); the row "issuing_authority, directory" is
// issuing_authority after the shipped directory's normalisation.
func evalCondition(t *testing.T, x *extract.Extractor, dir *subdivision.Directory, c condition, seed uint64, n int) string {
	type tally struct{ exact, total, answered int }
	per := map[string]*tally{}
	var mrzExact, mrzTotal, all, allExact int
	// Answers by confidence band (the classification's bands): how many,
	// how many exact.
	bands := [3]struct{ n, exact int }{}
	band := func(c float64) int {
		switch {
		case c < 0.4:
			return 0
		case c <= 0.6:
			return 1
		}
		return 2
	}
	var spent time.Duration
	dump := os.Getenv("EXTRACT_EVAL_DUMP")
	for i, s := range synthPassports(t, c, seed, n) {
		if dump != "" {
			name := filepath.Join(dump, fmt.Sprintf("%s-%d-%02d.jpg", strings.Fields(c.name)[0], seed, i))
			if err := writeJPEG(name, s.img); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		got, err := x.Passport(context.Background(), s.img)
		spent += time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if want, ok := s.fields["issuing_authority"]; ok {
			norm := extract.Fields{}
			for k, v := range got {
				norm[k] = v
			}
			extract.NormalizeAuthority(norm, dir)
			tl := per[dirRow]
			if tl == nil {
				tl = &tally{}
				per[dirRow] = tl
			}
			tl.total++
			if _, ok := norm["issuing_authority"]; ok {
				tl.answered++
			}
			if norm["issuing_authority"].Text == want {
				tl.exact++
			}
		}
		for f, want := range s.fields {
			tl := per[f]
			if tl == nil {
				tl = &tally{}
				per[f] = tl
			}
			tl.total++
			all++
			g, ok := got[f]
			if ok {
				tl.answered++
				bd := &bands[band(g.Confidence)]
				bd.n++
				if g.Text == want {
					bd.exact++
				}
			}
			if g.Text == want {
				tl.exact++
				allExact++
			} else if testing.Verbose() {
				t.Logf("%s sample %d %s: want %q got %q (%.2f)", c.name, i, f, want, g.Text, g.Confidence)
			}
			if strings.HasPrefix(f, "mrz_") {
				mrzTotal++
				if g.Text == want {
					mrzExact++
				}
			}
		}
	}
	names := make([]string, 0, len(per))
	for f := range per {
		names = append(names, f)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "| field | exact | answered | of |\n|---|---|---|---|\n")
	for _, f := range names {
		tl := per[f]
		fmt.Fprintf(&b, "| %s | %.1f %% | %.1f %% | %d |\n", f, pct(tl.exact, tl.total), pct(tl.answered, tl.total), tl.total)
	}
	fmt.Fprintf(&b, "| **all fields** | **%.1f %%** | | %d |\n", pct(allExact, all), all)
	fmt.Fprintf(&b, "| **MRZ lines** | **%.1f %%** | | %d |\n", pct(mrzExact, mrzTotal), mrzTotal)
	fmt.Fprintf(&b, "\n| confidence of an answered field | answers | exact |\n|---|---|---|\n")
	for i, name := range []string{"below 0.4", "0.4 to 0.6", "above 0.6"} {
		fmt.Fprintf(&b, "| %s | %d | %.1f %% |\n", name, bands[i].n, pct(bands[i].exact, bands[i].n))
	}
	fmt.Fprintf(&b, "\n%d passports, mean extraction time %.0f ms (this machine, shared CPU)\n", n, float64(spent.Milliseconds())/float64(n))
	return b.String()
}

// dirRow is the evaluation's row of issuing_authority normalised by the
// subdivision directory (not counted in "all fields").
const dirRow = "issuing_authority, directory"

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// writeJPEG writes img to name at quality 92, making its folder.
func writeJPEG(name string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("dump folder: %w", err)
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("dump crop: %w", err)
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: 92}); err != nil {
		f.Close()
		return fmt.Errorf("dump crop %s: %w", name, err)
	}
	return f.Close()
}
