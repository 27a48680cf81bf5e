// Command bench measures the service as a client sees it: latency of
// synchronous classification of one document, throughput of a batch at
// several concurrencies, per-stage timings from the service's metrics, and
// peak memory of the serving processes. It writes a Markdown report with a
// latency-vs-concurrency plot.
//
//	go run ./tools/bench -url http://127.0.0.1:8080 -single scene1.jpg -batch dir/ -out docs/benchmarks.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	url      string
	single   string
	batchDir string
	refDir   string
	requests int
	docs     int
	concs    []int
	pids     []int
	out      string
	label    string
	warmup   int
}

func run() error {
	var o options
	var concs, pids string
	flag.StringVar(&o.url, "url", "http://127.0.0.1:8080", "service base URL")
	flag.StringVar(&o.single, "single", "", "file with one document for the latency run")
	flag.StringVar(&o.batchDir, "batch", "", "folder of files for the throughput runs")
	flag.StringVar(&o.refDir, "refbatch", "", "folder of one-document photos of the reference's kinds for like-for-like throughput runs (optional)")
	flag.IntVar(&o.requests, "n", 50, "requests in the latency run")
	flag.IntVar(&o.docs, "docs", 100, "files per throughput run")
	flag.StringVar(&concs, "c", "1,2,4,8", "concurrencies of the throughput runs")
	flag.StringVar(&pids, "pids", "", "comma-separated process ids whose peak RSS to report")
	flag.StringVar(&o.out, "out", "", "Markdown report to write (stdout when empty)")
	flag.StringVar(&o.label, "label", "all-in-one", "name of the measured topology")
	flag.IntVar(&o.warmup, "warmup", 5, "requests sent before measuring")
	flag.Parse()
	for _, s := range strings.Split(concs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("bad concurrency %q", s)
		}
		o.concs = append(o.concs, n)
	}
	for _, s := range strings.Split(pids, ",") {
		if s = strings.TrimSpace(s); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("bad pid %q", s)
			}
			o.pids = append(o.pids, n)
		}
	}
	if o.single == "" || o.batchDir == "" {
		return fmt.Errorf("-single and -batch are required")
	}
	ctx := context.Background()
	c := newClient(o.url)
	single, err := os.ReadFile(o.single)
	if err != nil {
		return err
	}
	batch, err := readBatch(o.batchDir)
	if err != nil {
		return err
	}
	var refBatch [][]byte
	if o.refDir != "" {
		if refBatch, err = readBatch(o.refDir); err != nil {
			return err
		}
	}
	before, _ := c.metrics(ctx)
	for range o.warmup {
		if _, err := c.classify(ctx, single); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}
	rep := report{Label: o.label, Date: time.Now().UTC(), Machine: machine()}
	lat, err := c.latency(ctx, single, o.requests)
	if err != nil {
		return err
	}
	rep.Single = lat
	for _, conc := range o.concs {
		r, err := c.throughput(ctx, batch, o.docs, conc)
		if err != nil {
			return err
		}
		rep.Runs = append(rep.Runs, r)
	}
	for _, conc := range o.concs {
		if refBatch == nil {
			break
		}
		r, err := c.throughput(ctx, refBatch, o.docs, conc)
		if err != nil {
			return err
		}
		rep.RefRuns = append(rep.RefRuns, r)
	}
	after, _ := c.metrics(ctx)
	rep.Stages = stageDeltas(before, after)
	for _, pid := range o.pids {
		rep.Memory = append(rep.Memory, peakRSS(pid))
	}
	md := rep.markdown()
	if o.out == "" {
		fmt.Print(md)
		return nil
	}
	plot := strings.TrimSuffix(o.out, filepath.Ext(o.out)) + "-latency.png"
	if err := writePlot(plot, rep.Runs); err != nil {
		return err
	}
	md += fmt.Sprintf("\n![latency vs concurrency](%s)\n", filepath.Base(plot))
	return os.WriteFile(o.out, []byte(md), 0o644)
}

func readBatch(dir string) ([][]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, e := range entries {
		ext := strings.ToLower(filepath.Ext(e.Name()))
		if e.IsDir() || ext == ".json" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no files in %s", dir)
	}
	return out, nil
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted)-1) + 0.5)
	return sorted[i]
}

func sortDurations(d []time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
}
