package roles

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"docsuite/pkg/config"
	"docsuite/pkg/membudget"
)

// RegisterPageBudget puts the page memory budget b on reg's /metrics,
// labelled budget=name (the role whose budget it is, or "shared" for the
// all-in-one's): its size, the estimates of the pages admitted now, how
// many pages have waited for memory and for how long. An admin tuning
// PAGE_MEMORY_BYTES or WORKER_CONCURRENCY reads there whether pages queue
// for memory, which the DEBUG log line alone told. A nil reg registers
// nothing.
func RegisterPageBudget(reg prometheus.Registerer, name string, b *membudget.Budget) error {
	if reg == nil {
		return nil
	}
	labels := prometheus.Labels{"budget": name}
	for _, c := range []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "docsuite_page_memory_budget_bytes", ConstLabels: labels,
			Help: "Size of the memory budget the pages being decoded and worked on share (PAGE_MEMORY_BYTES or its default)."},
			func() float64 { return float64(b.Size()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "docsuite_page_memory_in_use_bytes", ConstLabels: labels,
			Help: "Sum of the estimated peaks of the pages admitted now."},
			func() float64 { return float64(b.InUse()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "docsuite_page_memory_waits_total", ConstLabels: labels,
			Help: "Pages that waited for memory before being decoded."},
			func() float64 { return float64(b.Waits()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "docsuite_page_memory_wait_seconds_total", ConstLabels: labels,
			Help: "Time pages spent waiting for memory, all together."},
			func() float64 { return b.Waited().Seconds() }),
	} {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("roles: metrics of the %s page budget: %w", name, err)
		}
	}
	return nil
}

// ownPageBudget is pageBudget, its metrics registered under role's name
// when it is the role's own (a shared one is registered where it is made).
func ownPageBudget(d Deps, w config.Worker, role string) *membudget.Budget {
	b := pageBudget(d, w)
	if d.Pages == nil {
		if err := RegisterPageBudget(d.Registry, role, b); err != nil {
			d.Log.Warn("page budget metrics not registered", "role", role, "err", err)
		}
	}
	return b
}
