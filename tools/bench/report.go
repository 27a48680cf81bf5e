package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"docsuite/pkg/cpucheck"
)

// report is everything one bench run measured.
type report struct {
	Label   string
	Date    time.Time
	Machine string
	Single  latencyResult
	Runs    []runResult
	// RefRuns are the throughput runs over the reference's own kind of
	// input (refKinds), when a folder of them was given.
	RefRuns []runResult
	Stages  []stageTiming
	Memory  []memory
}

// reference is one configuration of the seed's performance table: the
// reference service's time for one document and its throughput over 100.
type reference struct {
	Name   string
	Single float64 // seconds
	RPS    float64
}

// references are the seed's table, row by row: two CPU-only servers, then
// the GPU ones (one mid-range datacenter GPU, four of them, an entry GPU
// with 10 fast cores, and two of those behind a balancer).
var references = []reference{
	{"2 CPU cores", 5.5, 0.3},
	{"16 CPU cores", 4.2, 0.7},
	{"1 GPU, 24 cores", 3.0, 3.5},
	{"4 GPUs, 48 cores", 2.9, 6.0},
	{"production single node (entry GPU, 10 cores)", 2.4, 3.3},
	{"production double node (two such servers)", 2.6, 5.8},
}

// faster says how the reference's time for one document, ref, compares
// with ours: "10.9x faster", or "1.3x slower" when ours takes longer.
func faster(ref, ours float64) string {
	if ours <= ref {
		return fmt.Sprintf("%.1fx faster", ref/ours)
	}
	return fmt.Sprintf("%.1fx slower", ours/ref)
}

func (r report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s, %s\n\nMachine: %s.\n\n", r.Label, r.Date.Format("2006-01-02 15:04 MST"), r.Machine)
	fmt.Fprintf(&b, "### One document, sequential (%d requests)\n\n| p50 | p95 | p99 | mean |\n|---|---|---|---|\n| %s | %s | %s | %s |\n\n",
		r.Single.N, secs(r.Single.P50), secs(r.Single.P95), secs(r.Single.P99), secs(r.Single.Mean))
	b.WriteString("### Batches\n\n")
	best := batchTable(&b, r.Runs)
	like := best
	if len(r.RefRuns) > 0 {
		b.WriteString("\n### Batches of the reference's documents\n\n" + refKinds + "\n\n")
		like = batchTable(&b, r.RefRuns)
	}
	p50 := r.Single.P50.Seconds()
	b.WriteString("\n### Against the reference service (seed's table)\n\n| | reference | ours | ratio |\n|---|---|---|---|\n")
	for _, ref := range references {
		fmt.Fprintf(&b, "| one document, reference on %s | %.1f s | %.3f s | %s |\n", ref.Name, ref.Single, p50, faster(ref.Single, p50))
	}
	for _, ref := range references {
		fmt.Fprintf(&b, "| 100 documents, reference on %s | %.1f RPS | %.2f RPS | %.2fx |\n", ref.Name, ref.RPS, like, like/ref.RPS)
	}
	if len(r.RefRuns) > 0 {
		for _, ref := range references {
			fmt.Fprintf(&b, "| 100 files of the mixed batch, reference's 100 documents on %s | %.1f RPS | %.2f RPS | %.2fx |\n", ref.Name, ref.RPS, best, best/ref.RPS)
		}
	}
	if len(r.Stages) > 0 {
		b.WriteString("\n### Stages (service metrics over the whole run)\n\n| stage | calls | mean round trip | mean processing | mean queue + transport |\n|---|---|---|---|---|\n")
		for _, s := range r.Stages {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", s.Stage, s.Calls, ms(s.RoundTrip), ms(s.Handle), ms(s.RoundTrip-s.Handle))
		}
	}
	if len(r.Memory) > 0 {
		b.WriteString("\n### Memory\n\n| process | peak RSS |\n|---|---|\n")
		for _, m := range r.Memory {
			fmt.Fprintf(&b, "| %s (pid %d) | %.0f MB |\n", m.Name, m.PID, float64(m.PeakKB)/1024)
		}
	}
	return b.String()
}

// refKinds says what the reference's 100 documents are and what our
// batch of them holds.
const refKinds = "The seed's table times the reference on JPEG photos of one document each, of seven kinds (passport main " +
	"spread, residence page, driving licence front and back, vehicle registration certificate front and back, insurance " +
	"card); this batch is factory photos of those kinds (`passport_main`, `passport_registration`, " +
	"`driver_license_2011_front`, `_back`, `vehicle_registration_certificate_front`, `_back`, `snils_front`), one " +
	"document each. Its rows below are the like-for-like comparison; the mixed batch above (1 to 4 documents a photo, " +
	"multi-page PDFs) is harder than the reference's input, and its rows follow."

// batchTable writes the table of throughput runs and returns the best
// files per second among them.
func batchTable(b *strings.Builder, runs []runResult) float64 {
	b.WriteString("| concurrency | files | errors | wall | RPS | p50 | p95 | p99 |\n|---|---|---|---|---|---|---|---|\n")
	best := 0.0
	for _, x := range runs {
		best = max(best, x.RPS)
		fmt.Fprintf(b, "| %d | %d | %d | %s | %.2f | %s | %s | %s |\n", x.Concurrency, x.Docs, x.Errors, secs(x.Wall), x.RPS, secs(x.P50), secs(x.P95), secs(x.P99))
	}
	return best
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f s", d.Seconds()) }
func ms(d time.Duration) string   { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// stageTiming is the mean per-call time of one stage.
type stageTiming struct {
	Stage     string
	Calls     int
	RoundTrip time.Duration
	Handle    time.Duration
}

// stageDeltas compares two metric snapshots: the gateway's round-trip
// histogram and the workers' processing histogram per stage.
func stageDeltas(before, after map[string]float64) []stageTiming {
	get := func(m map[string]float64, name, stage string) float64 {
		return m[fmt.Sprintf(`%s{stage="%s"}`, name, stage)]
	}
	stages := map[string]bool{}
	for k := range after {
		if i := strings.Index(k, `stage="`); i >= 0 && strings.HasPrefix(k, "docsuite_stage_") {
			rest := k[i+7:]
			stages[rest[:strings.IndexByte(rest, '"')]] = true
		}
	}
	var out []stageTiming
	for st := range stages {
		n := get(after, "docsuite_stage_request_seconds_count", st) - get(before, "docsuite_stage_request_seconds_count", st)
		if n <= 0 {
			continue
		}
		rt := get(after, "docsuite_stage_request_seconds_sum", st) - get(before, "docsuite_stage_request_seconds_sum", st)
		hn := get(after, "docsuite_stage_handle_seconds_count", st) - get(before, "docsuite_stage_handle_seconds_count", st)
		h := get(after, "docsuite_stage_handle_seconds_sum", st) - get(before, "docsuite_stage_handle_seconds_sum", st)
		t := stageTiming{Stage: st, Calls: int(n), RoundTrip: time.Duration(rt / n * 1e9)}
		if hn > 0 {
			t.Handle = time.Duration(h / hn * 1e9)
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Stage < out[j].Stage })
	return out
}

// memory is a process's peak resident set.
type memory struct {
	PID    int
	Name   string
	PeakKB int
}

func peakRSS(pid int) memory {
	m := memory{PID: pid}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return m
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "Name:" {
			m.Name = f[1]
		}
		if len(f) >= 2 && f[0] == "VmHWM:" {
			fmt.Sscan(f[1], &m.PeakKB)
		}
	}
	return m
}

// machine names the processor and the platform the figures were taken on.
func machine() string {
	return fmt.Sprintf("%s, %s/%s", cpucheck.Host().Describe(runtime.NumCPU()), runtime.GOOS, runtime.GOARCH)
}
