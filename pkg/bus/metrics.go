package bus

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the stage timings of the suite: the caller's round trip
// (queue wait, transport and processing) and the worker's processing
// alone, so their difference shows time spent waiting. One Metrics
// serves a process's requests; it also remembers which stages' workers
// beat (beaters), so that its requests no worker beats for are sent again.
type Metrics struct {
	request *prometheus.HistogramVec
	handle  *prometheus.HistogramVec
	lost    *prometheus.CounterVec
	workers *beaters
}

var stageBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// NewMetrics registers the stage histograms on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		request: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "docsuite_stage_request_seconds",
			Help: "Round trip of stage requests as the caller sees it.", Buckets: stageBuckets}, []string{"stage"}),
		handle: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "docsuite_stage_handle_seconds",
			Help: "Processing time of stage requests inside the worker.", Buckets: stageBuckets}, []string{"stage"}),
		lost: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "docsuite_stage_workers_lost_total",
			Help: "Stage requests whose worker stopped beating before it answered (killed or crashed), or never beat for them, each sent once more."},
			[]string{"stage"}),
		workers: newBeaters(quietAfterSilent),
	}
	reg.MustRegister(m.request, m.handle, m.lost)
	return m
}

// beaters is what m remembers of the stages' workers (nil: nothing).
func (m *Metrics) beaters() *beaters {
	if m == nil {
		return nil
	}
	return m.workers
}

// workerLost counts a request whose worker was taken for lost.
func (m *Metrics) workerLost(stage string) {
	if m != nil {
		m.lost.WithLabelValues(stage).Inc()
	}
}

// ObserveRequest records a caller-side round trip.
func (m *Metrics) ObserveRequest(stage string, d time.Duration) {
	if m != nil {
		m.request.WithLabelValues(stage).Observe(d.Seconds())
	}
}

// HandleObserver returns the worker-side observer of a stage.
func (m *Metrics) HandleObserver(stage string) func(time.Duration) {
	if m == nil {
		return nil
	}
	h := m.handle.WithLabelValues(stage)
	return func(d time.Duration) { h.Observe(d.Seconds()) }
}
