// Command fraud is the stage worker for the forgery check
// (/pipelines/run/fraud): classification through the other stages, then
// the forgery signs of every document found (package fraud).
package main

import (
	"context"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	cli.Exit(roles.StageRole("fraud", func(ctx context.Context, d roles.Deps, cfg config.Stage) error {
		return roles.Fraud(ctx, d, cfg.Common, cfg.Worker, cfg.Models, cfg.TempDir)
	}))
}
