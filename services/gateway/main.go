// Command gateway is the HTTP API role: it validates requests, stores
// inputs, runs the pipelines over the stage workers and serves async
// results from NATS KV.
package main

import (
	"context"
	"log/slog"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	var cfg config.Gateway
	cli.Exit(cli.Role{
		Name:     "gateway",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Validate() },
		Run: func(ctx context.Context, log *slog.Logger) error {
			d, closeFn, err := roles.Connect(ctx, cfg.Common, "gateway", log)
			if err != nil {
				return err
			}
			defer closeFn()
			return roles.Gateway(ctx, d, cfg)
		},
	})
}
