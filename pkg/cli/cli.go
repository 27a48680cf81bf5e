// Package cli is the shared entry point of every role's binary: flags,
// configuration, logging, the AVX-512 gate, the Go heap's limit in a
// container and signal handling, so each services/<role>/main.go is a few
// lines.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"docsuite/pkg/config"
	"docsuite/pkg/cpucheck"
	"docsuite/pkg/logging"
	"docsuite/pkg/version"
)

// Role describes one binary.
type Role struct {
	// Name appears in logs ("gateway", "cropper", ...).
	Name string
	// Config is a pointer to the role's config struct.
	Config any
	// Common returns the loaded common settings (for logging).
	Common func() config.Common
	// Validate checks the loaded config.
	Validate func() error
	// Models is set for roles that run models: they pass the AVX-512 gate.
	Models func() config.Models
	// Run runs the role until ctx ends.
	Run func(ctx context.Context, log *slog.Logger) error
}

// Main runs a role and returns the process exit code.
func Main(r Role, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(r.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	envFile := fs.String("env-file", "", "env file with settings (also ENV_FILE); the environment overrides it")
	check := fs.Bool("check-config", false, "print the effective configuration (secrets masked) and exit")
	showVersion := fs.Bool("version", false, "print the release and the build and exit")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "%s %s (build %s)\n", r.Name, version.Number, version.BuildOrUnknown())
		return 0
	}
	if err := config.Load(r.Config, config.EnvFile(*envFile)); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if *check {
		fmt.Fprint(stdout, config.Print(r.Config))
		if err := r.Validate(); err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		return 0
	}
	if err := r.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	c := r.Common()
	log := logging.New(stderr, c.LogLevel, c.LogColorize, r.Name)
	log.Info("starting", "version", version.Number, "build", version.BuildOrUnknown())
	if limit, ok := holdHeapUnderContainerLimit(os.Getenv, cgroupMemoryFiles); ok {
		log.Info("Go heap held under the container's memory limit (GOMEMLIMIT unset)", "gomemlimit_bytes", limit)
	}
	if r.Models != nil {
		warn, err := cpucheck.Check(cpucheck.Host(), r.Models().AllowNoAVX512)
		if err != nil {
			log.Log(context.Background(), logging.LevelCritical, "refusing to start", "err", err)
			return 3
		}
		if warn != "" {
			log.Warn(warn)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := r.Run(ctx, log); err != nil && !errors.Is(err, context.Canceled) {
		log.Log(ctx, logging.LevelCritical, "stopped with an error", "err", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// Exit runs Main with the process's arguments and exits with its code.
// A role that runs models first makes sure OMP_THREAD_LIMIT,
// OPENCV_LOG_LEVEL and ORT_DISABLE_TELEMETRY are in its environment,
// starting itself again with them when they are not (reexecWithStartEnv);
// when that fails it runs on, slower, and says so. The role logs to a
// duplicate of stderr (logStream), which native libraries redirecting
// descriptor 2 leave alone.
func Exit(r Role) {
	if r.Models != nil {
		if err := reexecWithStartEnv(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.Exit(Main(r, os.Args[1:], os.Stdout, logStream()))
}
