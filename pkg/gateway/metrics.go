package gateway

import (
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
	}
	reg.MustRegister(m.requests, m.duration, m.tasksAccepted, m.tasksDone,
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
