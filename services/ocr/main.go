// Command ocr is the stage worker for full-text OCR (Tesseract, Russian and
// English) and data extraction (recognize: classification over the stage
// workers, then the fields of each document).
package main

import (
	"context"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	cli.Exit(roles.StageRole("ocr", func(ctx context.Context, d roles.Deps, cfg config.Stage) error {
		return roles.OCR(ctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.Extraction, cfg.TempDir)
	}))
}
