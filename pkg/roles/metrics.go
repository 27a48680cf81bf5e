package roles

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// ServeInternal serves /metrics, /healthz and the pprof profiles on the
// internal METRICS_ADDR of a role until ctx ends; an empty address turns
// it off. Never expose this port outside the installation.
func ServeInternal(ctx context.Context, d Deps, addr string) {
	if addr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(d.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", healthz(d))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.Log.Warn("internal metrics server stopped", "addr", addr, "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	d.Log.Info("internal metrics and pprof", "addr", addr)
}

// healthz answers a role's container health check: 200 while its NATS
// connection is up and its store answers, else 503 naming what is not
// ({"success": false, "checks": {"nats": ..., "store": ...}}). It answered
// 200 whatever the role could reach, so compose showed a worker cut off
// from NATS or MinIO as healthy.
func healthz(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		checks := map[string]string{"nats": "ok", "store": "ok"}
		ok := true
		if d.NC == nil || !d.NC.IsConnected() {
			checks["nats"], ok = "not connected", false
		}
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if d.Store == nil {
			checks["store"], ok = "none", false
		} else if err := d.Store.Ping(ctx); err != nil {
			checks["store"], ok = err.Error(), false
		}
		w.Header().Set("Content-Type", "application/json")
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"success": ok, "checks": checks})
	}
}
