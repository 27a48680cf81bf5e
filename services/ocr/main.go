// Command ocr is the stage worker for full-text OCR (Tesseract, Russian and
// English). Data extraction (recognize) is answered with 503 until it is
// built.
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
		Name:     "ocr",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return cfg.Common.Validate() },
		Models:   func() config.Models { return cfg.Models },
		Run: func(ctx context.Context, log *slog.Logger) error {
			d, closeFn, err := roles.Connect(ctx, cfg.Common, "ocr", log)
			if err != nil {
				return err
			}
			defer closeFn()
			roles.ServeInternal(ctx, d, cfg.MetricsAddr)
			return roles.OCR(ctx, d, cfg.Common, cfg.Worker, cfg.TempDir)
		},
	})
}
