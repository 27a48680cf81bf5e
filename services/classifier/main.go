// Command classifier is the stage worker that runs the classifier model on document
// crops through ONNX Runtime.
package main

import (
	"context"

	"docsuite/pkg/cli"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

func main() {
	cli.Exit(roles.StageRole("classifier", func(ctx context.Context, d roles.Deps, cfg config.Stage) error {
		return roles.Classifier(ctx, d, cfg.Common, cfg.Worker, cfg.Models)
	}))
}
