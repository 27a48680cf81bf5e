// Command allinone runs every role of the suite in one process: an
// embedded NATS server with JetStream, the folder object store, the
// gateway, the stage workers and the janitor. It is what `make run`
// starts; production runs each role as its own container instead.
package main

import (
	"context"
	"fmt"
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
		Validate: func() error { return validate(cfg) },
		Models:   func() config.Models { return cfg.Models },
		Run:      func(ctx context.Context, log *slog.Logger) error { return run(ctx, cfg, log) },
	})
}

func validate(cfg config.AllInOne) error {
	if cfg.Store.Kind != "folder" {
		return fmt.Errorf("the all-in-one uses the folder store (STORE_KIND=folder); run the separate roles for MinIO")
	}
	return cfg.Gateway.Validate()
}

func run(ctx context.Context, cfg config.AllInOne, log *slog.Logger) error {
	natsDir, err := filepath.Abs(cfg.NATSDir)
	if err != nil {
		return err
	}
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: natsDir, Port: cfg.NATSPort})
	if err != nil {
		return err
	}
	defer ns.Shutdown()
	log.Info("embedded NATS ready", "url", ns.ClientURL(), "jetstream", natsDir)
	nc, err := bus.Connect(ns.ClientURL(), "allinone", log)
	if err != nil {
		return err
	}
	defer nc.Close()
	st, err := store.NewFolder(cfg.Store.Dir)
	if err != nil {
		return err
	}
	d := roles.NewDeps(nc, st, log)
	g, gctx := errgroup.WithContext(ctx)
	roles.ServeInternal(gctx, d, cfg.Common.MetricsAddr)
	g.Go(func() error { return roles.Cropper(gctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.TempDir) })
	g.Go(func() error { return roles.Classifier(gctx, d, cfg.Common, cfg.Worker, cfg.Models) })
	g.Go(func() error { return roles.Orienter(gctx, d, cfg.Common, cfg.Worker, cfg.Models) })
	g.Go(func() error {
		return roles.OCR(gctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.Extraction, cfg.TempDir)
	})
	g.Go(func() error { return roles.Fraud(gctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.TempDir) })
	g.Go(func() error {
		return roles.Janitor(gctx, d, cfg.Common, time.Duration(cfg.JanitorInterval)*time.Second)
	})
	g.Go(func() error { return roles.Gateway(gctx, d, cfg.Gateway) })
	err = g.Wait()
	_ = nc.Drain()
	return err
}
