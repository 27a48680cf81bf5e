// Package testutil holds helpers for tests that need real servers: a MinIO
// server built by scripts/install-minio.sh and polling helpers.
package testutil

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// RepoRoot returns the repository root, found from this file's location.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// MinioServer is a running MinIO process owned by a test.
type MinioServer struct {
	Endpoint, AccessKey, SecretKey string
}

// StartMinio starts the MinIO server binary built by
// scripts/install-minio.sh on a free loopback port with a temporary data
// directory, and stops it when the test ends. The test is skipped only
// when MINIO_REQUIRED is not set and the binary is missing; make test sets
// MINIO_REQUIRED so a missing server fails there.
func StartMinio(t testing.TB) *MinioServer {
	t.Helper()
	bin := filepath.Join(RepoRoot(), ".cache", "bin", "minio")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("MINIO_REQUIRED") != "" {
			t.Fatalf("MinIO binary missing at %s (run scripts/install-minio.sh)", bin)
		}
		t.Skipf("MinIO binary missing at %s (run scripts/install-minio.sh)", bin)
	}
	// The ports are free when chosen, but another test package running
	// beside this one may take one before MinIO binds it; MinIO then exits,
	// and it is started again on other ports.
	const tries = 3
	for try := 1; ; try++ {
		s, exited := startMinioOnce(t, bin)
		err := waitReady(s, exited, 20*time.Second)
		if err == nil {
			return s
		}
		if try == tries || !errors.Is(err, errExited) {
			t.Fatalf("minio on %s: %v", s.Endpoint, err)
		}
		t.Logf("minio on %s: %v; starting again on other ports", s.Endpoint, err)
	}
}

// errExited says the MinIO process ended before it was ready.
var errExited = errors.New("exited before it was ready")

// startMinioOnce starts MinIO on free ports; the returned channel is
// closed when the process ends. The process is stopped when the test ends.
func startMinioOnce(t testing.TB, bin string) (*MinioServer, <-chan struct{}) {
	t.Helper()
	s := &MinioServer{Endpoint: fmt.Sprintf("127.0.0.1:%d", FreePort(t)), AccessKey: "docsuite", SecretKey: "docsuite-secret"}
	cmd := exec.Command(bin, "server", "--quiet", "--address", s.Endpoint, "--console-address", fmt.Sprintf("127.0.0.1:%d", FreePort(t)), t.TempDir())
	cmd.Env = append(os.Environ(), "MINIO_ROOT_USER="+s.AccessKey, "MINIO_ROOT_PASSWORD="+s.SecretKey, "MINIO_BROWSER=off")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start minio: %v", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	return s, exited
}

// waitReady polls s's readiness until it answers 200, the process exits
// (errExited) or timeout passes.
func waitReady(s *MinioServer, exited <-chan struct{}, timeout time.Duration) error {
	deadline := time.After(timeout)
	var last error
	for {
		resp, err := http.Get("http://" + s.Endpoint + "/minio/health/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		last = err
		select {
		case <-exited:
			return errExited
		case <-deadline:
			return fmt.Errorf("not ready within %v: %w", timeout, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// FreePort returns a free TCP port on loopback.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Eventually polls fn until it returns nil or the timeout passes.
func Eventually(t testing.TB, timeout time.Duration, fn func() error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var err error
	for {
		if err = fn(); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("condition not met within %v: %v", timeout, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
