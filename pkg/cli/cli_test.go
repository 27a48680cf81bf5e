package cli

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"docsuite/pkg/config"
	"docsuite/pkg/version"
)

// TestVersionFlagAndFirstLogLine: an admin asks a binary which release it
// and build it is without starting it (-version prints them and exits 0,
// running nothing), and a started role's first log line names them (a test
// binary is built without a build identity: "unknown").
func TestVersionFlagAndFirstLogLine(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantLog    string
		wantRan    bool
	}{
		{"-version", []string{"-version"}, 0, "janitor " + version.Number + " (build unknown)\n", "", false},
		{"started", nil, 0, "", `"msg":"starting","role":"janitor","version":"` + version.Number + `","build":"unknown"`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("LOGURU_LEVEL", "INFO")
			var cfg config.Janitor
			ran := false
			r := Role{
				Name:     "janitor",
				Config:   &cfg,
				Common:   func() config.Common { return cfg.Common },
				Validate: func() error { return nil },
				Run:      func(ctx context.Context, log *slog.Logger) error { ran = true; return nil },
			}
			var stdout, stderr bytes.Buffer
			if code := Main(r, tc.args, &stdout, &stderr); code != tc.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.wantCode, stderr.String())
			}
			if stdout.String() != tc.wantStdout {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.wantStdout)
			}
			if !strings.Contains(stderr.String(), tc.wantLog) {
				t.Errorf("log %q lacks %q", stderr.String(), tc.wantLog)
			}
			if ran != tc.wantRan {
				t.Errorf("role ran: %v, want %v", ran, tc.wantRan)
			}
		})
	}
}

// TestFatalExitLoggedAtEveryLevel: a role that stops with an error says
// so at CRITICAL, the highest level, so that LOGURU_LEVEL=CRITICAL (an
// admin quieting the logs) does not turn a failed start into a silent
// exit 1, as it did when the line was logged at ERROR.
func TestFatalExitLoggedAtEveryLevel(t *testing.T) {
	t.Setenv("LOGURU_LEVEL", "CRITICAL")
	var cfg config.Janitor
	r := Role{
		Name:     "janitor",
		Config:   &cfg,
		Common:   func() config.Common { return cfg.Common },
		Validate: func() error { return nil },
		Run:      func(ctx context.Context, log *slog.Logger) error { return errors.New("store: connection refused") },
	}
	var stdout, stderr bytes.Buffer
	if code := Main(r, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), `"msg":"stopped with an error"`) || !strings.Contains(stderr.String(), "connection refused") {
		t.Errorf("stderr %q: want the error at CRITICAL", stderr.String())
	}
}
