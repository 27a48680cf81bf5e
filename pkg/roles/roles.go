// Package roles wires each role of the suite from its configuration: the
// same functions run a role as its own process (services/<role>) and all
// roles together in the all-in-one (services/allinone).
package roles

import (
	"context"
	"log/slog"
	"runtime"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"

	"docsuite/pkg/bus"
	"docsuite/pkg/config"
	"docsuite/pkg/crop"
	"docsuite/pkg/cropsvc"
	"docsuite/pkg/gateway"
	"docsuite/pkg/membudget"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// Deps are the connections a role runs on.
type Deps struct {
	NC    *nats.Conn
	Store store.Store
	Log   *slog.Logger
	// Registry collects the process's metrics; Stages records stage timings on it.
	Registry *prometheus.Registry
	Stages   *bus.Metrics
	// Pages, when not nil, is the memory budget the roles of the process
	// that decode pages (cropper, ocr, fraud) share (SharedPageBudget);
	// nil gives each its own.
	Pages *membudget.Budget
}

// NewDeps bundles connections with a fresh metrics registry.
func NewDeps(nc *nats.Conn, st store.Store, log *slog.Logger) Deps {
	reg := prometheus.NewRegistry()
	return Deps{NC: nc, Store: st, Log: log, Registry: reg, Stages: bus.NewMetrics(reg)}
}

// Connect opens the NATS connection and the store of a standalone role,
// waiting for each (bus.Wait) until ctx ends.
func Connect(ctx context.Context, c config.Common, name string, log *slog.Logger) (Deps, func(), error) {
	bus.WarnCredentials(log, c.NATSUser, c.NATSPassword)
	nc, err := bus.ConnectWait(ctx, c.NATSURL, name, log, bus.Auth(c.NATSUser, c.NATSPassword))
	if err != nil {
		return Deps{}, nil, err
	}
	where := c.Store.Dir
	if c.Store.Kind == "minio" {
		where = c.Store.MinioEndpoint
	}
	st, err := bus.Wait(ctx, log, "the object store", where, func() (store.Store, error) { return store.Open(ctx, c.Store) })
	if err != nil {
		nc.Close()
		return Deps{}, nil, err
	}
	return NewDeps(nc, st, log), func() { _ = nc.Drain() }, nil
}

// Gateway serves HTTP and runs async tasks until ctx ends.
func Gateway(ctx context.Context, d Deps, cfg config.Gateway) error {
	srv, err := gateway.New(ctx, cfg, d.NC, d.Store, d.Log, d.Registry, d.Stages)
	if err != nil {
		return err
	}
	errc := make(chan error, 2)
	go func() { errc <- srv.RunTasks(ctx) }()
	go func() { errc <- srv.Serve(ctx) }()
	err = <-errc
	if ctx.Err() == nil {
		return err
	}
	<-errc
	return nil
}

// Cropper serves the crop stage until ctx ends. The neural cropper's model
// loads in the background as the classifier's does; without it the role
// still serves: simple_cropper=true and mode=classify_only work, other
// requests answer model_not_loaded, and its health probe says why.
func Cropper(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models, tempDir string) error {
	sweepTemp(ctx, d.Log, tempDir, c.Timeout())
	mdl := loadModel(d.Log, "cropper", func() (*crop.Neural, error) {
		return crop.OpenNeural(crop.NeuralConfig{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: d.Log})
	})
	defer closeAfter(mdl)
	pb := ownPageBudget(d, w, "cropper")
	svc := cropsvc.New(d.Store, tempDir, d.Log, func(ctx context.Context) (cropsvc.Finder, error) {
		n, err := mdl.get(ctx)
		if err != nil {
			return nil, err
		}
		return n, nil
	}, pb)
	defer svc.Close()
	d.Log.Info("page memory budget", "role", "cropper", "page_memory_bytes", svc.MemoryBudget(), "shared", d.Pages != nil)
	return serveStage(ctx, d, c, w, stages.Crop, svc.Crop, mdl.probe)
}

// serveStage runs one stage worker with its readiness probe until ctx ends.
func serveStage[Req, Resp any](ctx context.Context, d Deps, c config.Common, w config.Worker, stage string,
	h bus.Handler[Req, Resp], probe func() bus.Readiness) error {
	wk, err := bus.Serve(d.NC, stage, bus.ServeOptions{Concurrency: workerSize(w), Timeout: c.Timeout(), Log: d.Log,
		Observe: d.Stages.HandleObserver(stage)}, h)
	if err != nil {
		return err
	}
	hs, err := bus.ServeHealth(d.NC, stage, probe)
	if err != nil {
		_ = wk.Stop()
		return err
	}
	d.Log.Info("stage worker ready", "stage", stage, "ready", probe().Ready)
	<-ctx.Done()
	_ = hs.Unsubscribe()
	return wk.Stop()
}

// workerSize is how many requests the worker w configures runs at once
// (WORKER_CONCURRENCY, 0 meaning the CPUs the process may use), the
// engines it holds. The CPUs are GOMAXPROCS's: in a container limited to
// two CPUs on a 48-core host it is 2 where runtime.NumCPU says 48: a
// classifier would otherwise take 48 crops at once, each holding a
// Tesseract engine and its images, in a container of 2 CPUs and 2 GB.
func workerSize(w config.Worker) int {
	if w.Concurrency > 0 {
		return w.Concurrency
	}
	return runtime.GOMAXPROCS(0)
}
