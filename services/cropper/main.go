// Command cropper is the stage worker that decodes pages and cuts every
// document out of its background.
package main

import (
	"context"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	cli.Exit(roles.StageRole("cropper", func(ctx context.Context, d roles.Deps, cfg config.Stage) error {
		return roles.Cropper(ctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.TempDir)
	}))
}
