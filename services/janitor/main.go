// Command janitor removes stored objects older than PIPELINE_TIMEOUT +
// COMPLETED_TASK_TTL_SECONDS: inputs and intermediates of tasks that
// never completed, and expired results.
package main

import (
	"context"
	"log/slog"
	"time"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
	"docsuite/pkg/store"
)

func main() {
	var cfg config.Janitor
	cli.Exit(cli.Role{
		Name:     "janitor",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Common.Validate() },
		Run: func(ctx context.Context, log *slog.Logger) error {
			st, err := store.Open(ctx, cfg.Store)
			if err != nil {
				return err
			}
			return roles.Janitor(ctx, roles.Deps{Store: st, Log: log}, cfg.Common, time.Duration(cfg.Interval)*time.Second)
		},
	})
}
