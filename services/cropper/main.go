// Command cropper is the stage worker that decodes pages and cuts every
// document out of its background.
package main

import (
	"context"
	"log/slog"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	var cfg config.Stage
	cli.Exit(cli.Role{
		Name:     "cropper",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Common.Validate() },
		Models:   func() config.Models { return cfg.Models },
		Run: func(ctx context.Context, log *slog.Logger) error {
			d, closeFn, err := roles.Connect(ctx, cfg.Common, "cropper", log)
			if err != nil {
				return err
			}
			defer closeFn()
			roles.ServeInternal(ctx, d, cfg.MetricsAddr)
			return roles.Cropper(ctx, d, cfg.Common, cfg.Worker, cfg.TempDir)
		},
	})
}
