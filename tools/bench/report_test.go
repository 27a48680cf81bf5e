package main

import (
	"strings"
	"testing"
	"time"
)

func TestFaster(t *testing.T) {
	for _, tc := range []struct {
		ref, ours float64
		want      string
	}{
		{5.5, 0.5, "11.0x faster"},
		{2.9, 2.9, "1.0x faster"},
		{2.4, 3.0, "1.2x slower"},
	} {
		if got := faster(tc.ref, tc.ours); got != tc.want {
			t.Errorf("faster(%v, %v) = %q, want %q", tc.ref, tc.ours, got, tc.want)
		}
	}
}

// TestMarkdownComparesEverySeedRow checks that the report sets the best
// throughput and the one-document median against each configuration of
// the seed's table, the GPU ones included.
func TestMarkdownComparesEverySeedRow(t *testing.T) {
	r := report{
		Label:  "all-in-one",
		Date:   time.Date(2026, 12, 2, 10, 30, 0, 0, time.UTC),
		Single: latencyResult{N: 50, P50: 500 * time.Millisecond},
		Runs: []runResult{
			{Concurrency: 1, Docs: 100, RPS: 2.0},
			{Concurrency: 4, Docs: 100, RPS: 3.85},
			{Concurrency: 8, Docs: 100, RPS: 3.6},
		},
	}
	md := r.markdown()
	for _, want := range []string{
		"| one document, reference on 2 CPU cores | 5.5 s | 0.500 s | 11.0x faster |",
		"| one document, reference on 1 GPU, 24 cores | 3.0 s | 0.500 s | 6.0x faster |",
		"| 100 documents, reference on 1 GPU, 24 cores | 3.5 RPS | 3.85 RPS | 1.10x |",
		"| 100 documents, reference on 4 GPUs, 48 cores | 6.0 RPS | 3.85 RPS | 0.64x |",
		"| 100 documents, reference on production single node (entry GPU, 10 cores) | 3.3 RPS | 3.85 RPS | 1.17x |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "| 100 documents, reference on "); n != len(references) {
		t.Errorf("%d throughput rows, want one per seed row (%d)", n, len(references))
	}
}

// TestMarkdownComparesLikeForLike checks that with a batch of the
// reference's own kind of input the seed's throughput rows are set against
// it, and the mixed batch gets rows of its own, named so.
func TestMarkdownComparesLikeForLike(t *testing.T) {
	r := report{
		Single:  latencyResult{N: 50, P50: 500 * time.Millisecond},
		Runs:    []runResult{{Concurrency: 2, Docs: 100, RPS: 2.7}},
		RefRuns: []runResult{{Concurrency: 2, Docs: 100, RPS: 4.2}, {Concurrency: 4, Docs: 100, RPS: 4.0}},
	}
	md := r.markdown()
	for _, want := range []string{
		"### Batches of the reference's documents",
		"| 100 documents, reference on 1 GPU, 24 cores | 3.5 RPS | 4.20 RPS | 1.20x |",
		"| 100 files of the mixed batch, reference's 100 documents on 1 GPU, 24 cores | 3.5 RPS | 2.70 RPS | 0.77x |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "| 100 documents, reference on "); n != len(references) {
		t.Errorf("%d like-for-like rows, want one per seed row (%d)", n, len(references))
	}
}
