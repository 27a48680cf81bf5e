package roles

import (
	"context"
	"log/slog"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
)

// StageRole is the command of a stage worker (cropper, classifier,
// orienter, ocr): it loads config.Stage, connects to NATS and the store,
// serves the internal metrics address and runs serve until stopped.
func StageRole(name string, serve func(ctx context.Context, d Deps, cfg config.Stage) error) cli.Role {
	var cfg config.Stage
	return cli.Role{
		Name:     name,
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Validate() },
		Models:   func() config.Models { return cfg.Models },
		Run: func(ctx context.Context, log *slog.Logger) error {
			d, closeFn, err := Connect(ctx, cfg.Common, name, log)
			if err != nil {
				return err
			}
			defer closeFn()
			ServeInternal(ctx, d, cfg.MetricsAddr)
			return serve(ctx, d, cfg)
		},
	}
}
