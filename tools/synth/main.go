// Command synth writes synthetic document scenes with exact ground truth.
//
//	go run ./tools/synth -out DIR -n N -seed S            scenes: JPEG + JSON
//	go run ./tools/synth -out DIR -n N -crops             crops + labels
//	go run ./tools/synth -out DIR -n N -pdf               multi-page PDFs + JSON
//	go run ./tools/synth -gallery docs/synth              contact sheets per type
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"docsuite/pkg/synth"
)

type options struct {
	out, gallery      string
	n, start, workers int
	seed              uint64
	crops, pdf        bool
	cropSize          int
	cropJitter        float64
	clutterCrops      bool
	pageCrops         bool
	foundBy           string
	foundMinIoU       float64
	foundMaxIoU       float64
	maxPages          int
	cfg               synth.Config
	fxScale           float64
	types             string
	galleryCount      int
	cpuProfile        string
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	fs.StringVar(&o.out, "out", "", "output folder")
	fs.IntVar(&o.n, "n", 100, "number of scenes (or PDFs)")
	fs.IntVar(&o.start, "start", 0, "index of the first scene (to shard a run)")
	fs.Uint64Var(&o.seed, "seed", 1, "random seed: same seed, same bytes")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel workers")
	fs.IntVar(&o.cfg.Size, "size", 1600, "longer side of a scene in pixels")
	fs.IntVar(&o.cfg.MinDocs, "min-docs", 1, "fewest documents per scene")
	fs.IntVar(&o.cfg.MaxDocs, "max-docs", 4, "most documents per scene")
	fs.StringVar(&o.types, "types", "", "comma-separated type identifiers (default: all 97)")
	fs.Float64Var(&o.cfg.ScanProb, "scan", 0.15, "share of flat scanner-style scenes (negative: none)")
	fs.Float64Var(&o.cfg.PhotoBackgroundProb, "photo-bg", 0.35, "share of scenes on Debian wallpaper photographs")
	fs.Float64Var(&o.cfg.StackProb, "stack", 0, "share of photographed scenes of several documents laid as a stack, each on top of one before")
	fs.Float64Var(&o.cfg.CoverProb, "cover", 0, "chance that a photographed scene's second and later documents are closed booklet covers (class other)")
	fs.BoolVar(&o.crops, "crops", false, "write tightly cropped documents with labels instead of scenes")
	fs.IntVar(&o.cropSize, "crop-size", 384, "longer side of crops in pixels")
	fs.Float64Var(&o.cropJitter, "crop-jitter", 0.01, "corner error of crops as a fraction of the document size")
	fs.BoolVar(&o.clutterCrops, "clutter-crops", false, "with -crops: cut the objects on the table (pieces of pens, coins, phones) as not_document crops instead of the documents")
	fs.BoolVar(&o.pageCrops, "page-crops", false, "with -crops: cut, from each scene of one document, a loose level view of the page around it (the page as classified when the cropper cuts nothing), labelled with the document's type")
	fs.StringVar(&o.foundBy, "found-by", "", "with -crops: cut each document where the neural cropper of this models folder finds it (matched at -found-min-iou), not along its true corners")
	fs.Float64Var(&o.foundMinIoU, "found-min-iou", 0.5, "with -found-by: least quad IoU between a found document and the true one for its crop to be kept")
	fs.Float64Var(&o.foundMaxIoU, "found-max-iou", 1, "with -found-by: keep only the crops whose IoU with the true quad is at most this (the documents the cropper cuts badly)")
	fs.BoolVar(&o.pdf, "pdf", false, "write multi-page PDF scans instead of JPEG scenes")
	fs.IntVar(&o.maxPages, "max-pages", 4, "most pages per PDF")
	fs.StringVar(&o.gallery, "gallery", "", "write one contact sheet PNG per type into this folder and exit")
	fs.IntVar(&o.galleryCount, "gallery-count", 6, "samples per contact sheet")
	fs.Float64Var(&o.fxScale, "fx", 1, "multiplies every effect strength")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile to this file")
	fx := synth.DefaultEffects()
	fx.Print = 1 // the training and evaluation sets' documents stray from their templates
	for _, e := range []struct {
		name string
		p    *float64
		help string
	}{
		{"perspective", &fx.Perspective, "camera tilt"}, {"angle", &fx.Angle, "in-plane angle"},
		{"mirror", &fx.Mirror, "mirrored documents"}, {"turn", &fx.Turn, "90/180/270 orientations"},
		{"overlap", &fx.Overlap, "overlap between documents"}, {"occlusion", &fx.Occlusion, "fingers over documents"},
		{"shadow", &fx.Shadow, "shadows"}, {"glare", &fx.Glare, "glare"}, {"lighting", &fx.Lighting, "uneven light and colour cast"},
		{"exposure", &fx.Exposure, "over/under exposure"}, {"blur", &fx.Blur, "defocus and motion blur"},
		{"noise", &fx.Noise, "sensor noise"}, {"jpeg", &fx.JPEG, "JPEG artefacts"}, {"lowres", &fx.LowRes, "low resolution"},
		{"clutter", &fx.Clutter, "objects on the table"}, {"bend", &fx.Bend, "bent and folded paper"},
		{"print", &fx.Print, "print variation (values shifted, photo glued larger, passports in open covers)"},
		{"specimen", &fx.Specimen, "specimen marks (ОБРАЗЕЦ, SPECIMEN, 見本...) across 7 % of documents; default 0"},
	} {
		fs.Float64Var(e.p, e.name, *e.p, "strength of "+e.help+" (0 off, 1 default)")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	fx = fx.Scaled(o.fxScale)
	o.cfg.Effects = fx
	o.cfg.Seed = o.seed
	if o.types != "" {
		for _, t := range strings.Split(o.types, ",") {
			if t = strings.TrimSpace(t); t != "" {
				o.cfg.Types = append(o.cfg.Types, t)
			}
		}
	}
	if o.gallery == "" && o.out == "" {
		return nil, fmt.Errorf("-out is required")
	}
	if o.foundBy != "" && (!o.crops || o.clutterCrops || o.pageCrops) {
		return nil, fmt.Errorf("-found-by needs -crops (and no -clutter-crops or -page-crops)")
	}
	if (o.clutterCrops || o.pageCrops) && (!o.crops || o.clutterCrops == o.pageCrops) {
		return nil, fmt.Errorf("-clutter-crops and -page-crops need -crops, and exclude each other")
	}
	if o.workers < 1 {
		o.workers = 1
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "synth:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o *options) error {
	// Scenes allocate large short-lived images: collect garbage sooner so
	// the resident size stays low and flat on long runs.
	debug.SetGCPercent(40)
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	g, err := synth.New(o.cfg)
	if err != nil {
		return err
	}
	if o.gallery != "" {
		return writeGallery(ctx, g, o)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", o.out, err)
	}
	t0 := time.Now()
	var job func(ctx context.Context, i int) error
	var finish func() error
	switch {
	case o.crops:
		job, finish, err = cropJob(g, o)
	case o.pdf:
		job, finish = pdfJob(g, o), func() error { return nil }
	default:
		job, finish = sceneJob(g, o), func() error { return nil }
	}
	if err != nil {
		return err
	}
	// finish runs after a failed or interrupted run too: the crops
	// already written keep their labels (minutes of work on a large set),
	// and the cropper a -found-by run holds is closed.
	runErr := parallel(ctx, o.start, o.n, o.workers, job)
	if err := finish(); err != nil {
		return errors.Join(runErr, err)
	}
	if runErr != nil {
		if o.crops {
			return fmt.Errorf("%w (labels written for the crops made before it)", runErr)
		}
		return runErr
	}
	el := time.Since(t0)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(os.Stderr, "synth: %d items in %.1fs (%.1f/s), heap %d MiB, sys %d MiB\n",
		o.n, el.Seconds(), float64(o.n)/el.Seconds(), ms.HeapAlloc>>20, ms.Sys>>20)
	return nil
}

// parallel runs job for indexes start..start+n-1 on w workers and stops at
// the first error.
func parallel(ctx context.Context, start, n, w int, job func(context.Context, int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	idx := make(chan int)
	errs := make(chan error, w)
	for k := 0; k < w; k++ {
		go func() {
			for i := range idx {
				if err := job(ctx, i); err != nil {
					errs <- fmt.Errorf("item %d: %w", i, err)
					cancel()
					for range idx {
					}
					return
				}
			}
			errs <- nil
		}()
	}
	go func() {
		defer close(idx)
		for i := start; i < start+n; i++ {
			select {
			case idx <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var first error
	for k := 0; k < w; k++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first == nil {
		first = ctx.Err()
		if first == context.Canceled {
			first = nil
		}
	}
	return first
}
