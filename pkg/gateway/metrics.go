package gateway

import (
	"context"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the gateway's Prometheus series, on a registry of its own.
type metrics struct {
	reg           *prometheus.Registry
	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	tasksAccepted *prometheus.CounterVec
	tasksDone     *prometheus.CounterVec
	tasksErrors   *prometheus.CounterVec
	// answersCut counts answers whose client did not read them at
	// ANSWER_MIN_RATE (boundWrites): docsuite_http_requests_total counts
	// them by the status they began with.
	answersCut *prometheus.CounterVec
}

// registerGauges adds the series a saturated or backed-up gateway shows:
// the synchronous requests running against MAX_INFLIGHT, and the async
// queue's depth.
// Without them an operator saw 503 overloaded in the request counts only
// once clients were already refused, and a growing backlog of async
// tasks not at all.
func (s *Server) registerGauges(reg prometheus.Registerer) {
	reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docsuite_sync_inflight", Help: "Synchronous requests running on this gateway (at most MAX_INFLIGHT).",
		}, func() float64 { return float64(len(s.inflight)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docsuite_sync_inflight_limit", Help: "MAX_INFLIGHT of this gateway.",
		}, func() float64 { return float64(cap(s.inflight)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "docsuite_async_queue_tasks", Help: "Async tasks in the queue, waiting or running, all gateways together (-1: NATS could not be read).",
		}, func() float64 {
			if s.queue == nil {
				return -1
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			n, err := s.queue.Depth(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		}),
	)
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsuite_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "docsuite_http_request_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.01, .025, .05, .1, .2, .3, .5, 1, 2, 5, 10, 30, 60},
		}, []string{"route"}),
		tasksAccepted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsuite_async_tasks_accepted_total", Help: "Async tasks accepted by method.",
		}, []string{"method"}),
		tasksDone: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsuite_async_tasks_completed_total", Help: "Async tasks completed successfully by method.",
		}, []string{"method"}),
		tasksErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsuite_async_task_errors_total", Help: "Async task tries that ended in an error, by method and catalogue code (a try may be retried).",
		}, []string{"method", "code"}),
		answersCut: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsuite_http_answers_cut_total", Help: "Answers cut off because the client read them slower than ANSWER_MIN_RATE, by route (counted in docsuite_http_requests_total by the status they began with).",
		}, []string{"route"}),
	}
	reg.MustRegister(m.requests, m.duration, m.tasksAccepted, m.tasksDone, m.tasksErrors, m.answersCut,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

func (s *Server) observe() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		s.metrics.requests.WithLabelValues(route, strconv.Itoa(c.Writer.Status())).Inc()
		s.metrics.duration.WithLabelValues(route).Observe(time.Since(start).Seconds())
	}
}

func joinSorted(s []string) string {
	sort.Strings(s)
	return strings.Join(s, ", ")
}
