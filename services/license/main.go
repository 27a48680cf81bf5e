// Command license is the license daemon: it POSTs LICENSE_TOKEN with the
// installation's usage to LICENSE_URL over HTTPS (through LICENSE_PROXY or
// HTTPS_PROXY) on start and every LICENSE_CHECK_INTERVAL, and publishes the
// verdict on NATS KV for the gateways. See docs/license.md.
package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"docsuite/pkg/bus"
	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/licensed"
	"docsuite/pkg/version"
)

func main() {
	var cfg config.License
	cli.Exit(cli.Role{
		Name:     "license",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return licensed.Validate(cfg) },
		Run:      func(ctx context.Context, log *slog.Logger) error { return run(ctx, cfg, log) },
	})
}

func run(ctx context.Context, cfg config.License, log *slog.Logger) error {
	client, err := licensed.NewClient(licensed.ClientOptions{Proxy: cfg.Proxy, CAFile: cfg.CAFile})
	if err != nil {
		return err
	}
	bus.WarnCredentials(log, cfg.NATSUser, cfg.NATSPassword)
	nc, err := bus.ConnectWait(ctx, cfg.NATSURL, "license", log, bus.Auth(cfg.NATSUser, cfg.NATSPassword))
	if err != nil {
		return err
	}
	defer nc.Close()
	instance := cfg.InstanceID
	if instance == "" {
		if instance, err = os.Hostname(); err != nil {
			instance = "unknown"
		}
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	d, err := licensed.New(ctx, nc, licensed.Options{
		URL: cfg.URL, Token: cfg.Token, InstanceID: instance, Version: version.Number, Client: client,
		Interval: time.Duration(cfg.Interval) * time.Second, Log: log, Metrics: licensed.NewMetrics(reg),
	})
	if err != nil {
		return err
	}
	serveInternal(ctx, cfg.MetricsAddr, reg, nc.IsConnected, log)
	log.Info("license daemon started", "url", config.RedactURLs(cfg.URL), "instance", instance, "interval_s", cfg.Interval,
		"proxy", cfg.Proxy != "" || os.Getenv("HTTPS_PROXY") != "" || os.Getenv("https_proxy") != "")
	return d.Run(ctx)
}

// serveInternal serves /metrics and /healthz on METRICS_ADDR (empty: off).
// /healthz answers 503 while NATS is disconnected.
func serveInternal(ctx context.Context, addr string, reg *prometheus.Registry, connected func() bool, log *slog.Logger) {
	if addr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !connected() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"success": false, "reason": "nats disconnected"}`))
			return
		}
		_, _ = w.Write([]byte(`{"success": true}`))
	})
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("internal metrics server stopped", "addr", addr, "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
}
