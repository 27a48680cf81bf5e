package config

import (
	"fmt"
	"strings"
)

// Validate checks the values every role shares.
func (c Common) Validate() error { return joinErrs(c.Problems()) }

// Problems lists what is wrong with the shared values, one sentence each
// (empty when nothing is), for a role's own Validate to add its own to.
func (c Common) Problems() []string {
	var errs []string
	if c.PipelineTimeout <= 0 {
		errs = append(errs, "PIPELINE_TIMEOUT must be > 0")
	}
	if c.CompletedTTL <= 0 {
		errs = append(errs, "COMPLETED_TASK_TTL_SECONDS must be > 0")
	}
	switch c.Store.Kind {
	case "folder", "minio":
	default:
		errs = append(errs, fmt.Sprintf("STORE_KIND=%q must be folder or minio", c.Store.Kind))
	}
	switch strings.ToUpper(c.LogLevel) {
	case "TRACE", "DEBUG", "INFO", "SUCCESS", "WARNING", "ERROR", "CRITICAL":
	default:
		errs = append(errs, fmt.Sprintf("LOGURU_LEVEL=%q is not a level", c.LogLevel))
	}
	return errs
}

// Validate checks the gateway's values.
func (g Gateway) Validate() error { return joinErrs(g.Problems()) }

// Problems lists what is wrong with the gateway's values (see
// Common.Problems).
func (g Gateway) Problems() []string {
	errs := g.Common.Problems()
	if g.MinFileBytes < 0 || g.MaxFileBytes <= g.MinFileBytes {
		errs = append(errs, "MAX_FILE_BYTES must exceed MIN_FILE_BYTES")
	}
	if g.MaxPages <= 0 || g.MaxPixels <= 0 || g.PageParallel <= 0 || g.MaxInFlight <= 0 || g.AsyncRunners <= 0 {
		errs = append(errs, "MAX_PAGES, MAX_PIXELS, PAGE_PARALLELISM, MAX_INFLIGHT and ASYNC_RUNNERS must be > 0")
	}
	if g.UploadMemory <= g.MaxFileBytes {
		errs = append(errs, "UPLOAD_MEMORY_BYTES must exceed MAX_FILE_BYTES (one largest file must fit)")
	}
	switch g.AuthMode {
	case "open", "kv", "license":
	case "file":
		if g.TokensFile == "" {
			errs = append(errs, "AUTH_MODE=file needs TOKENS_FILE")
		}
	default:
		errs = append(errs, fmt.Sprintf("AUTH_MODE=%q must be open, file, kv or license", g.AuthMode))
	}
	return errs
}

// Validate checks the janitor's values.
func (j Janitor) Validate() error {
	errs := j.Common.Problems()
	if j.Interval <= 0 {
		errs = append(errs, "JANITOR_INTERVAL must be > 0")
	}
	return joinErrs(errs)
}

// Validate checks the all-in-one's values: the gateway's, its janitor's
// interval and its folder store.
func (a AllInOne) Validate() error {
	errs := a.Gateway.Problems()
	if a.JanitorInterval <= 0 {
		errs = append(errs, "JANITOR_INTERVAL must be > 0")
	}
	if a.Store.Kind != "folder" {
		errs = append(errs, "the all-in-one uses the folder store (STORE_KIND=folder); run the separate roles for MinIO")
	}
	return joinErrs(errs)
}

func joinErrs(errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("invalid configuration: %s", strings.Join(errs, "; "))
}
