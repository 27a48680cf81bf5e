package roles

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	promtest "github.com/prometheus/client_golang/prometheus/testutil"

	"docsuite/pkg/membudget"
)

// TestPageBudgetMetrics: /metrics says how large a page budget is, how
// much of it the pages admitted hold, and how many pages waited for memory
// and how long, so an admin sees pages queueing without DEBUG logs.
func TestPageBudgetMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	b := membudget.New(100)
	if err := RegisterPageBudget(reg, "cropper", b); err != nil {
		t.Fatal(err)
	}
	leave, err := b.Acquire(context.Background(), 70, nil)
	if err != nil {
		t.Fatal(err)
	}
	admitted := make(chan func())
	go func() {
		l, err := b.Acquire(context.Background(), 50, nil)
		if err != nil {
			t.Error(err)
		}
		admitted <- l
	}()
	time.Sleep(50 * time.Millisecond)
	leave()
	(<-admitted)()
	want := `
# HELP docsuite_page_memory_budget_bytes Size of the memory budget the pages being decoded and worked on share (PAGE_MEMORY_BYTES or its default).
# TYPE docsuite_page_memory_budget_bytes gauge
docsuite_page_memory_budget_bytes{budget="cropper"} 100
# HELP docsuite_page_memory_in_use_bytes Sum of the estimated peaks of the pages admitted now.
# TYPE docsuite_page_memory_in_use_bytes gauge
docsuite_page_memory_in_use_bytes{budget="cropper"} 0
# HELP docsuite_page_memory_waits_total Pages that waited for memory before being decoded.
# TYPE docsuite_page_memory_waits_total counter
docsuite_page_memory_waits_total{budget="cropper"} 1
`
	if err := promtest.GatherAndCompare(reg, strings.NewReader(want), "docsuite_page_memory_budget_bytes",
		"docsuite_page_memory_in_use_bytes", "docsuite_page_memory_waits_total"); err != nil {
		t.Error(err)
	}
	if s := counterValue(t, reg, "docsuite_page_memory_wait_seconds_total"); s < 0.04 {
		t.Errorf("waited %.3f s, want the 0.05 s the page waited", s)
	}
	if err := RegisterPageBudget(reg, "cropper", b); err == nil {
		t.Error("the same budget name registered twice without an error")
	}
}

// counterValue is the value of the counter name, of one sample, in reg.
func counterValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no %s", name)
	return 0
}
