package licensed

import (
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"docsuite/pkg/licensestate"
)

// Metrics are the daemon's Prometheus series.
type Metrics struct {
	checks       *prometheus.CounterVec
	valid        prometheus.Gauge
	reachable    prometheus.Gauge
	requestsLeft prometheus.Gauge
	expires      prometheus.Gauge
	lastAnswer   prometheus.Gauge
}

// NewMetrics registers the daemon's series on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		checks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsuite_license_checks_total", Help: "License checks by result: valid, invalid, unreachable.",
		}, []string{"result"}),
		valid: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsuite_license_valid", Help: "1 when the published verdict lets the gateways serve (grace not counted), else 0.",
		}),
		reachable: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsuite_license_server_reachable", Help: "1 when the last check got an answer from the license server.",
		}),
		requestsLeft: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsuite_license_requests_left", Help: "Requests the license still allows (-1: unlimited).",
		}),
		expires: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsuite_license_expiry_timestamp_seconds", Help: "Unix time the license expires (0: no end date).",
		}),
		lastAnswer: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsuite_license_last_answer_timestamp_seconds", Help: "Unix time of the license server's last answer.",
		}),
	}
	reg.MustRegister(m.checks, m.valid, m.reachable, m.requestsLeft, m.expires, m.lastAnswer)
	return m
}

// observe records one verdict; result is empty for a refresh that is not
// a check.
func (m *Metrics) observe(result string, v licensestate.Verdict) {
	if m == nil {
		return
	}
	if result != "" {
		m.checks.WithLabelValues(result).Inc()
	}
	m.valid.Set(boolf(servable(v)))
	m.reachable.Set(boolf(v.Reachable))
	left := -1.0
	if v.RequestsLeft != nil {
		left = float64(*v.RequestsLeft)
	}
	m.requestsLeft.Set(left)
	m.expires.Set(unix(v.Expires))
	m.lastAnswer.Set(unix(v.CheckedAt))
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unix(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.Unix())
}

// servable reports whether v lets the gateways serve now, ignoring how old
// it is (the gateway's grace period is not the daemon's setting).
func servable(v licensestate.Verdict) bool {
	return v.Check(time.Now(), time.Duration(math.MaxInt64)) == nil
}
