// Command wordsfit fits how the printed words read on a document revise
// the classifier's picture probabilities (classify.WordWeights), on
// synthetic crops of the document factory, and writes them to
// pkg/classify/wordweights.json.
//
//	bin/synth -out DIR -crops -crop-size 1200 -n 400 -seed 7707   (scripts/models.sh makes the sets)
//	go run ./tools/wordsfit -fit DIR,DIR2 -test DIR3     measure, write nothing
//	go run ./tools/wordsfit -fit DIR,DIR2 -test DIR3 -write   also write the weights
//	go run ./tools/wordsfit -models DIR -repicture ...   keep the cached words, take the
//	                                                     picture's probabilities from DIR's docnet
//	go run ./tools/wordsfit -swap 0.25 -unsure 0.6 ...   experiments (docs/models.md): fit against
//	                                                     pictures that lie, leave unsure words out
//	go run ./tools/wordsfit -weights pkg/classify/wordweights.json -fit ... -test ...
//	                                                     measure given weights, fit nothing
//
// Each set is reported with the type accuracy of the picture alone and
// with the words, and with the words' calibration: the expected
// calibration error over 10 bins (as tools/eval reports the service's)
// and the mean log loss of the true class.
//
// Each folder holds crops and the labels.jsonl that tools/synth -crops
// writes. Every crop is read as the classifier worker reads it (picture,
// text lines, zone, printed words, orientation); the readings are kept in
// wordsfit.jsonl in each folder, so a second fit does not read again
// (delete it after changing the reading or the models).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
)

func main() {
	fitDir := flag.String("fit", "", "crops to fit on (tools/synth -crops output; several folders separated by commas)")
	testDir := flag.String("test", "", "crops to measure on (other seeds; folders separated by commas)")
	models := flag.String("models", "models", "models directory")
	write := flag.Bool("write", false, "write the fitted weights to pkg/classify/wordweights.json")
	out := flag.String("out", "pkg/classify/wordweights.json", "where -write writes")
	repicture := flag.Bool("repicture", false, "keep the cached readings' words and orientation, take the "+
		"picture's probabilities again from -models (compares docnets in a minute; the words were read with the "+
		"orientation the earlier docnet helped choose, so delete the caches before the fit that is kept)")
	swap := flag.Float64("swap", 0, "add, for this share of the fit's crops, a copy with the picture of a crop of "+
		"another family (docnet sure and wrong, as on real photographs); the test set is also reported so swapped")
	unsure := flag.Float64("unsure", 0, "leave out the words read under this confidence that no template prints "+
		"and no field holds (an experiment: the classifier does not do this)")
	weights := flag.String("weights", "", "measure these weights (a wordweights.json) instead of fitting new ones")
	flag.Parse()
	if *fitDir == "" {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *fitDir, *testDir, *models, *write, *out, *repicture, *swap, *unsure, *weights); err != nil {
		fmt.Fprintln(os.Stderr, "wordsfit:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, fitDir, testDir, models string, write bool, out string, repicture bool, swap, unsure float64, weights string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	lib := os.Getenv("ONNXRUNTIME_LIB")
	if lib == "" {
		lib = ".cache/onnxruntime/libonnxruntime.so.1" // where make deps installs it
	}
	m := config.Models{Dir: models, ONNXRuntime: lib, Threads: 1, PrintedWords: true}
	tw, err := classify.LoadTypeWords()
	if err != nil {
		return err
	}
	fitSet, classes, err := readAll(ctx, m, log, fitDir, repicture)
	if err != nil {
		return err
	}
	fitSet = dropUnsure(tw, fitSet, unsure)
	var w classify.WordWeights
	if weights != "" {
		if w, err = loadWeights(weights); err != nil {
			return err
		}
	} else {
		w = fit(tw, classes, swapPictures(fitSet, swap, 1))
	}
	if swap > 0 && weights == "" {
		var f float64
		w, f = sharpen(tw, classes, fitSet, w)
		fmt.Printf("sharpened on the fit set as read: weights times %.3f\n", f)
	}
	if weights != "" {
		fmt.Printf("measuring %s: %+v\n", weights, w)
	} else {
		fmt.Printf("fitted on %d crops of %s (swap %g): %+v\n", len(fitSet), fitDir, swap, w)
	}
	report("fit set", tw, classes, fitSet, w)
	if testDir != "" {
		testSet, _, err := readAll(ctx, m, log, testDir, repicture)
		if err != nil {
			return err
		}
		testSet = dropUnsure(tw, testSet, unsure)
		report("test set", tw, classes, testSet, w)
		report("test set, pictures swapped", tw, classes, swapPictures(testSet, 1, 2)[len(testSet):], w)
	}
	if !write {
		return nil
	}
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Println("wrote", out)
	return nil
}

// readAll reads the crops of comma-separated folders.
func readAll(ctx context.Context, m config.Models, log *slog.Logger, dirs string, repicture bool) ([]reading, []string, error) {
	var all []reading
	var classes []string
	for _, dir := range strings.Split(dirs, ",") {
		rs, cs, err := readings(ctx, m, log, dir, repicture)
		if err != nil {
			return nil, nil, err
		}
		all, classes = append(all, rs...), cs
	}
	return all, classes, nil
}

// loadWeights reads a wordweights.json.
func loadWeights(path string) (classify.WordWeights, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return classify.WordWeights{}, err
	}
	w, err := classify.ParseWordWeights(b)
	if err != nil {
		return w, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}
