// Command classifier is the stage worker that runs the classifier model on document
// crops through ONNX Runtime.
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
		Name:     "classifier",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Common.Validate() },
		Models:   func() config.Models { return cfg.Models },
		Run: func(ctx context.Context, log *slog.Logger) error {
			d, closeFn, err := roles.Connect(ctx, cfg.Common, "classifier", log)
			if err != nil {
				return err
			}
			defer closeFn()
			roles.ServeInternal(ctx, d, cfg.MetricsAddr)
			return roles.Classifier(ctx, d, cfg.Common, cfg.Worker, cfg.Models)
		},
	})
}
