// Command janitor removes stored objects older than PIPELINE_TIMEOUT +
// COMPLETED_TASK_TTL_SECONDS that completed tasks left behind: inputs and
// intermediates, and expired results, and the parts of multipart uploads
// to MinIO that a killed process never completed. It reads task records
// in NATS and keeps the objects of a task still queued or running.
package main

import (
	"context"
	"log/slog"
	"time"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	var cfg config.Janitor
	cli.Exit(cli.Role{
		Name:     "janitor",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Validate() },
		Run: func(ctx context.Context, log *slog.Logger) error {
			d, closeFn, err := roles.Connect(ctx, cfg.Common, "janitor", log)
			if err != nil {
				return err
			}
			defer closeFn()
			roles.ServeInternal(ctx, d, cfg.MetricsAddr)
			return roles.Janitor(ctx, d, cfg.Common, time.Duration(cfg.Interval)*time.Second)
		},
	})
}
