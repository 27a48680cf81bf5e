package config

import (
	"fmt"
	"net/url"
	"strings"
)

// Upper bounds of the settings counted in seconds: far above any sensible
// value, and low enough that the durations made of them (and their sums,
// such as the task records' TTL) cannot overflow: PIPELINE_TIMEOUT=10000000000
// made a negative duration, and the gateway exited with NATS's "duplicates
// window can not be larger then max age", which names no variable.
const (
	maxPipelineSeconds = 24 * 3600
	maxPeriodSeconds   = 366 * 24 * 3600
	// maxUploadRate bounds UPLOAD_MIN_RATE and ANSWER_MIN_RATE (1 GiB a
	// second), so that the bytes they ask of every 60 s cannot overflow.
	maxUploadRate = 1 << 30
)

// Validate checks the values every role shares.
func (c Common) Validate() error { return joinErrs(c.Problems()) }

// Problems lists what is wrong with the shared values, one sentence each
// (empty when nothing is), for a role's own Validate to add its own to.
func (c Common) Problems() []string {
	var errs []string
	if c.PipelineTimeout <= 0 {
		errs = append(errs, "PIPELINE_TIMEOUT must be > 0")
	} else if c.PipelineTimeout > maxPipelineSeconds {
		errs = append(errs, fmt.Sprintf("PIPELINE_TIMEOUT=%d must be at most %d (seconds; the shipped nginx waits 3600)", c.PipelineTimeout, maxPipelineSeconds))
	}
	if c.CompletedTTL <= 0 {
		errs = append(errs, "COMPLETED_TASK_TTL_SECONDS must be > 0")
	} else if c.CompletedTTL > maxPeriodSeconds {
		errs = append(errs, fmt.Sprintf("COMPLETED_TASK_TTL_SECONDS=%d must be at most %d (a year)", c.CompletedTTL, maxPeriodSeconds))
	}
	switch c.Store.Kind {
	case "folder", "minio":
	default:
		errs = append(errs, fmt.Sprintf("STORE_KIND=%q must be folder or minio", c.Store.Kind))
	}
	errs = append(errs, c.natsAuthProblems()...)
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
	if g.MaxPages <= 0 || g.MaxPixels <= 0 || g.MaxFilePixels <= 0 || g.PageParallel <= 0 || g.MaxInFlight <= 0 || g.AsyncRunners <= 0 {
		errs = append(errs, "MAX_PAGES, MAX_PIXELS, MAX_FILE_PIXELS, PAGE_PARALLELISM, MAX_INFLIGHT and ASYNC_RUNNERS must be > 0")
	}
	if g.LicenseGrace < 0 || g.LicenseGrace > maxPeriodSeconds {
		errs = append(errs, fmt.Sprintf("LICENSE_GRACE_SECONDS=%d must be between 0 and %d", g.LicenseGrace, maxPeriodSeconds))
	}
	if g.UploadMinRate < 0 || g.UploadMinRate > maxUploadRate {
		errs = append(errs, fmt.Sprintf("UPLOAD_MIN_RATE=%d must be between 0 and %d (bytes a second)", g.UploadMinRate, maxUploadRate))
	}
	if g.AnswerMinRate < 0 || g.AnswerMinRate > maxUploadRate {
		errs = append(errs, fmt.Sprintf("ANSWER_MIN_RATE=%d must be between 0 and %d (bytes a second)", g.AnswerMinRate, maxUploadRate))
	}
	if g.UploadMemory <= g.MaxFileBytes {
		errs = append(errs, "UPLOAD_MEMORY_BYTES must exceed MAX_FILE_BYTES (one largest file must fit)")
	}
	if (g.TLSCertFile == "") != (g.TLSKeyFile == "") {
		errs = append(errs, "TLS_CERT_FILE and TLS_KEY_FILE must be set together (HTTPS) or both left empty (plain HTTP)")
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
	} else if j.Interval > maxPeriodSeconds {
		errs = append(errs, fmt.Sprintf("JANITOR_INTERVAL=%d must be at most %d", j.Interval, maxPeriodSeconds))
	}
	return joinErrs(errs)
}

// Problems lists what is wrong with the model settings: MODEL_THREADS was
// taken as 1 when 0 or negative and handed to ONNX Runtime as it was when
// huge (one thread each per model session).
func (m Models) Problems() []string {
	if m.Threads < 1 || m.Threads > 256 {
		return []string{fmt.Sprintf("MODEL_THREADS=%d must be between 1 and 256", m.Threads)}
	}
	return nil
}

// Problems lists what is wrong with WORKER_CONCURRENCY (0 means the CPUs
// the process may use; a negative value was taken as 0 without a word) and
// PAGE_MEMORY_BYTES (0 means the default).
func (w Worker) Problems() []string {
	var out []string
	if w.Concurrency < 0 || w.Concurrency > 1024 {
		out = append(out, fmt.Sprintf("WORKER_CONCURRENCY=%d must be between 0 (the CPUs) and 1024", w.Concurrency))
	}
	if w.PageMemory < 0 {
		out = append(out, fmt.Sprintf("PAGE_MEMORY_BYTES=%d must be 0 (the default) or more", w.PageMemory))
	}
	return out
}

// Problems lists what is wrong with the extraction's outside references.
func (e Extraction) Problems() []string {
	var errs []string
	if e.AddressServiceTimeoutMS <= 0 {
		errs = append(errs, fmt.Sprintf("ADDRESS_SERVICE_TIMEOUT_MS=%d must be > 0", e.AddressServiceTimeoutMS))
	}
	if e.AddressServiceURL != "" {
		if u, err := url.Parse(e.AddressServiceURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Sprintf("ADDRESS_SERVICE_URL=%q must be an http:// or https:// address", e.AddressServiceURL))
		}
	}
	return errs
}

// Validate checks a stage worker's values: the shared ones, its models',
// its concurrency and (read by ocr) the extraction's.
func (s Stage) Validate() error {
	errs := s.Common.Problems()
	errs = append(errs, s.Models.Problems()...)
	errs = append(errs, s.Worker.Problems()...)
	errs = append(errs, s.Extraction.Problems()...)
	return joinErrs(errs)
}

// Validate checks the all-in-one's values: the gateway's, its janitor's
// interval and its folder store.
func (a AllInOne) Validate() error {
	errs := a.Gateway.Problems()
	errs = append(errs, a.Models.Problems()...)
	errs = append(errs, a.Worker.Problems()...)
	errs = append(errs, a.Extraction.Problems()...)
	if a.JanitorInterval <= 0 {
		errs = append(errs, "JANITOR_INTERVAL must be > 0")
	} else if a.JanitorInterval > maxPeriodSeconds {
		errs = append(errs, fmt.Sprintf("JANITOR_INTERVAL=%d must be at most %d", a.JanitorInterval, maxPeriodSeconds))
	}
	// 0 is not "random": NATS takes it for its default port, 4222.
	if a.NATSPort != -1 && (a.NATSPort < 1 || a.NATSPort > 65535) {
		errs = append(errs, fmt.Sprintf("NATS_PORT=%d must be -1 (a random loopback port) or 1..65535", a.NATSPort))
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

// natsAuthProblems checks NATS_USER and NATS_PASSWORD: both or neither,
// and not beside credentials in NATS_URL (which would win or lose
// silently, by client version).
func (c Common) natsAuthProblems() []string {
	var errs []string
	if (c.NATSUser == "") != (c.NATSPassword == "") {
		errs = append(errs, "NATS_USER and NATS_PASSWORD must be set together (or neither, for a NATS server without authentication)")
	}
	if c.NATSUser != "" {
		for _, p := range strings.Split(c.NATSURL, ",") {
			if u, err := url.Parse(strings.TrimSpace(p)); err == nil && u.User != nil {
				errs = append(errs, "NATS_URL carries credentials (user@ or user:password@): give them in NATS_USER and NATS_PASSWORD or in NATS_URL, not both")
				break
			}
		}
	}
	return errs
}
