// Command allinone runs every role of the suite in one process: an
// embedded NATS server with JetStream, the folder object store, the
// gateway, the stage workers and the janitor. It is what `make run`
// starts; production runs each role as its own container instead.
package main

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"time"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/bus"
	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
	"docsuite/pkg/store"
)

func main() {
	var cfg config.AllInOne
	cli.Exit(cli.Role{
		Name:     "allinone",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Validate() },
		Models:   func() config.Models { return cfg.Models },
		Run:      func(ctx context.Context, log *slog.Logger) error { return run(ctx, cfg, log) },
	})
}

func run(ctx context.Context, cfg config.AllInOne, log *slog.Logger) error {
	natsDir, err := filepath.Abs(cfg.NATSDir)
	if err != nil {
		return err
	}
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: natsDir, Port: cfg.NATSPort, User: cfg.NATSUser, Password: cfg.NATSPassword})
	if err != nil {
		return err
	}
	defer ns.Shutdown()
	log.Info("embedded NATS ready", "url", ns.ClientURL(), "jetstream", natsDir, "auth", cfg.NATSUser != "")
	nc, err := bus.Connect(ns.ClientURL(), "allinone", log, bus.Auth(cfg.NATSUser, cfg.NATSPassword))
	if err != nil {
		return err
	}
	defer nc.Close()
	st, err := store.NewFolder(cfg.Store.Dir)
	if err != nil {
		return err
	}
	d := roles.NewDeps(nc, st, log)
	return serve(ctx, d, cfg)
}

// serve runs the roles until ctx ends or one fails. The gateway stops
// first, answering the requests it has taken (within the pipeline
// timeout), and only then the stage workers and the janitor it needs for
// them: stopped together, the workers left the requests in flight on
// SIGTERM to fail with 503 dependency_down, or to wait out their timeout.
// The roles that decode pages (cropper, ocr, fraud) share one memory
// budget, the process's, unless d brings one.
func serve(ctx context.Context, d roles.Deps, cfg config.AllInOne) error {
	if d.Pages == nil {
		d.Pages = roles.SharedPageBudget(cfg.Worker)
		if err := roles.RegisterPageBudget(d.Registry, "shared", d.Pages); err != nil {
			return err
		}
	}
	gwCtx, stopGateway := context.WithCancel(ctx)
	defer stopGateway()
	wCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	roles.ServeInternal(wCtx, d, cfg.Common.MetricsAddr)
	var workers errgroup.Group
	worker := func(run func(context.Context) error) {
		workers.Go(func() error {
			err := run(wCtx)
			if err != nil {
				stopGateway() // a failed role stops the process, the gateway first
			}
			return err
		})
	}
	worker(func(ctx context.Context) error {
		return roles.Cropper(ctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.TempDir)
	})
	worker(func(ctx context.Context) error { return roles.Classifier(ctx, d, cfg.Common, cfg.Worker, cfg.Models) })
	worker(func(ctx context.Context) error { return roles.Orienter(ctx, d, cfg.Common, cfg.Worker, cfg.Models) })
	worker(func(ctx context.Context) error {
		return roles.OCR(ctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.Extraction, cfg.TempDir)
	})
	worker(func(ctx context.Context) error {
		return roles.Fraud(ctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.TempDir)
	})
	worker(func(ctx context.Context) error {
		return roles.Janitor(ctx, d, cfg.Common, time.Duration(cfg.JanitorInterval)*time.Second)
	})
	gwErr := roles.Gateway(gwCtx, d, cfg.Gateway)
	stopWorkers()
	wErr := workers.Wait()
	_ = d.NC.Drain()
	return errors.Join(gwErr, wErr)
}
