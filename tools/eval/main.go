// Command eval measures the running service on labelled data: documents
// found, missed and spurious, quad IoU, type accuracy per class with a
// confusion matrix, orientation accuracy, calibration error, and time per
// file. It reads either a synthetic folder from the document factory
// (per-scene JSON next to each image) or the real-data folder with its
// manifest.csv and groundtruth_quads.json, and writes a Markdown section
// with PNG plots.
//
//	go run ./tools/eval -url http://127.0.0.1:8080 -synth /tmp/test-set -out docs/accuracy-synth.md
//	go run ./tools/eval -url http://127.0.0.1:8080 -real ../shared/realdata -out docs/accuracy-real.md
//	go run ./tools/eval -crop -synth /tmp/crop-test -real ../shared/realdata -out docs/accuracy-cropper.md
//	go run ./tools/eval -compare before.jsonl after.jsonl
//
// The measures come with 95 % intervals, and -compare sets two runs'
// -pairs files side by side: which documents only one got right
// (McNemar's exact test), the calibration's change with its interval, and
// every answer that changed. On a few hundred documents a change of two
// answers is noise; these say which changes are not.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

func run() error {
	url := flag.String("url", "http://127.0.0.1:8080", "service base URL")
	synthDir := flag.String("synth", "", "synthetic test folder (scene images + JSON)")
	realDir := flag.String("real", "", "real-data folder with manifest.csv")
	out := flag.String("out", "", "Markdown report (stdout when empty); plots are written beside it")
	orient8 := flag.Bool("orient8", true, "real data: also classify each single-document image turned and mirrored the 8 ways")
	simple := flag.Bool("simple", false, "use simple_cropper=true")
	cropOnly := flag.Bool("crop", false, "evaluate the croppers in this process (neural, neural without refinement, simple) instead of the service; -synth and -real may both be given")
	modelsDir := flag.String("models", "models", "models directory (with -crop)")
	pairsOut := flag.String("pairs", "", "also write each matched document (file, truth, answer, confidence, IoU, rotation) as one JSON line to this file, for calibration and error analysis")
	compare := flag.Bool("compare", false, "compare two -pairs files of runs on the same inputs, given as the two arguments (first, second); writes Markdown to -out or stdout")
	flag.Parse()
	if *compare {
		if flag.NArg() != 2 {
			return fmt.Errorf("-compare wants two -pairs files, got %d arguments", flag.NArg())
		}
		md, err := compareRuns(flag.Arg(0), flag.Arg(1))
		if err != nil {
			return err
		}
		if *out == "" {
			fmt.Print(md)
			return nil
		}
		return os.WriteFile(*out, []byte(md), 0o644)
	}
	if *cropOnly {
		return runCropEval(context.Background(), *synthDir, *realDir, *modelsDir, *out)
	}
	if (*synthDir == "") == (*realDir == "") {
		return fmt.Errorf("give exactly one of -synth or -real")
	}
	c := newClient(*url, *simple)
	ctx := context.Background()
	var cases []testCase
	var err error
	name := "synthetic test set"
	if *synthDir != "" {
		cases, err = loadSynth(*synthDir)
	} else {
		name = "real photos and scans"
		cases, err = loadReal(*realDir)
	}
	if err != nil {
		return err
	}
	res := evaluate(ctx, c, cases, *orient8 && *realDir != "")
	if *pairsOut != "" {
		if err := res.writePairs(*pairsOut); err != nil {
			return err
		}
	}
	plotBase := ""
	if *out != "" {
		plotBase = strings.TrimSuffix(*out, filepath.Ext(*out))
	}
	md, err := res.markdown(name, plotBase)
	if err != nil {
		return err
	}
	if *realDir != "" {
		docs := "docs"
		if *out != "" {
			docs = filepath.Dir(*out)
		}
		sec, err := fraudSection(docs)
		if err != nil {
			// The measurement took minutes: keep it, without the copied
			// table, rather than lose it over a page written elsewhere.
			fmt.Fprintf(os.Stderr, "eval: %v; the report goes without the forgery check's table\n", err)
		}
		md = seeAlso + md + sec
	}
	if *out == "" {
		fmt.Print(md)
		return nil
	}
	return os.WriteFile(*out, []byte(md), 0o644)
}

// seeAlso heads the real-data report with the other accuracy pages.
const seeAlso = `# Accuracy

Made by ` + "`make eval`" + ` against a fresh all-in-one (default cropper). Other pages:
[synthetic test set](accuracy-synthetic.md) (the same measures on fresh factory scenes),
[croppers](accuracy-cropper.md), [extraction](accuracy-extraction.md) (current figures:
[accuracy-extraction-current.md](accuracy-extraction-current.md)), [forgery check](accuracy-fraud.md),
[quality flags](quality.md), every wrong type below looked at in [accuracy-misses.md](accuracy-misses.md),
and how the models are made and measured in [models](models.md).

`
