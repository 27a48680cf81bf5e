package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"docsuite/pkg/testutil"
)

// TestSweepAbortsInterruptedUploads: an object over 16 MiB goes to MinIO
// as a multipart upload; a process killed (SIGKILL) after its first part,
// or a request cancelled then (minio-go's own abort fails on the cancelled
// context), left that part in MinIO, which no listing of objects shows,
// until MinIO's own stale-upload cleanup a day on. The janitor's
// RemovePartial aborts it once begun before its cutoff, and leaves one
// begun after it (a write that may still be under way). A complete
// PutReader leaves no mark behind.
func TestSweepAbortsInterruptedUploads(t *testing.T) {
	srv := testutil.StartMinio(t)
	cfg := MinioConfig{Endpoint: srv.Endpoint, AccessKey: srv.AccessKey, SecretKey: srv.SecretKey, Bucket: "test"}
	m, err := NewMinio(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		key       string
		interrupt func(t *testing.T, key string)
	}{
		{"gateway killed", "tasks/killed/input", func(t *testing.T, key string) { killedPut(t, cfg, key) }},
		{"request cancelled", "tasks/cancelled/input", func(t *testing.T, key string) { cancelledPut(t, m, key) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.interrupt(t, tc.key)
			if got := uploadsOf(t, m, tc.key); len(got) != 1 {
				t.Fatalf("after the interrupted put: %d incomplete uploads, want 1", len(got))
			}
			// Begun after the cutoff: a write that may still be going on.
			n, _, err := RemovePartial(t.Context(), m, time.Now().Add(-time.Hour))
			if err != nil || n != 0 {
				t.Fatalf("sweep with a cutoff an hour back aborted %d uploads (%v), want none", n, err)
			}
			if got := uploadsOf(t, m, tc.key); len(got) != 1 {
				t.Fatalf("a young upload was aborted: %d left", len(got))
			}
			n, size, err := RemovePartial(t.Context(), m, time.Now().Add(time.Minute))
			if err != nil || n != 1 || size != multipartAbove {
				t.Errorf("sweep aborted %d uploads of %d bytes (%v), want 1 of %d", n, size, err, multipartAbove)
			}
			if got := uploadsOf(t, m, tc.key); len(got) != 0 {
				t.Errorf("after the sweep: %d incomplete uploads of %s", len(got), tc.key)
			}
			if marks := keysUnder(t, m, uploadMarks); len(marks) != 0 {
				t.Errorf("marks left after the sweep: %v", marks)
			}
		})
	}
	// A complete multipart put leaves neither parts nor a mark.
	big := make([]byte, multipartAbove+1)
	if err := m.PutReader(t.Context(), "tasks/whole/input", struct{ io.Reader }{bytes.NewReader(big)}, int64(len(big))); err != nil {
		t.Fatal(err)
	}
	if marks := keysUnder(t, m, uploadMarks); len(marks) != 0 {
		t.Errorf("a complete put left its mark: %v", marks)
	}
	if n, _, err := RemovePartial(t.Context(), m, time.Now().Add(time.Minute)); err != nil || n != 0 {
		t.Errorf("sweep after a complete put aborted %d uploads (%v)", n, err)
	}
}

// killedPutEnv names, in the environment of the test binary run again by
// killedPut, the key to put and the server's address.
const killedPutEnv = "STORE_TEST_KILLED_PUT"

// TestKilledPutHelper is the process killedPut kills: it puts an object
// of 20 MiB whose reader stops after the first part, and waits.
func TestKilledPutHelper(t *testing.T) {
	key := os.Getenv(killedPutEnv)
	if key == "" {
		t.Skip("run by TestSweepAbortsInterruptedUploads")
	}
	cfg := MinioConfig{Endpoint: os.Getenv(killedPutEnv + "_ENDPOINT"), AccessKey: os.Getenv(killedPutEnv + "_ACCESS"),
		SecretKey: os.Getenv(killedPutEnv + "_SECRET"), Bucket: "test"}
	m, err := NewMinio(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.PutReader(t.Context(), key, stopAfterPart(make(chan struct{})), 20<<20)
	t.Fatal("the put ended: it should have been killed")
}

// killedPut runs the test binary again to put an object of 20 MiB under
// key, and kills it (SIGKILL) once MinIO holds its first part.
func killedPut(t *testing.T, cfg MinioConfig, key string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledPutHelper$")
	cmd.Env = append(os.Environ(), killedPutEnv+"="+key, killedPutEnv+"_ENDPOINT="+cfg.Endpoint,
		killedPutEnv+"_ACCESS="+cfg.AccessKey, killedPutEnv+"_SECRET="+cfg.SecretKey)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	m, err := NewMinio(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	waitFirstPart(t, m, key)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
}

// cancelledPut puts an object of 20 MiB under key and cancels the put
// once MinIO holds its first part.
func cancelledPut(t *testing.T, m *Minio, key string) {
	ctx, cancel := context.WithCancel(t.Context())
	release := make(chan struct{})
	errc := make(chan error, 1)
	go func() { errc <- m.PutReader(ctx, key, stopAfterPart(release), 20<<20) }()
	waitFirstPart(t, m, key)
	cancel()
	close(release)
	if err := <-errc; err == nil {
		t.Fatal("the cancelled put succeeded")
	}
}

// stopAfterPart reads a first part's worth of zeros, then waits for
// release and fails, as a client's connection that broke.
func stopAfterPart(release <-chan struct{}) io.Reader {
	return io.MultiReader(io.LimitReader(zeros{}, multipartAbove), waitReader(release))
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

type waitReader <-chan struct{}

func (w waitReader) Read([]byte) (int, error) {
	<-w
	return 0, io.ErrUnexpectedEOF
}

// waitFirstPart waits until MinIO holds a part of an upload of key.
func waitFirstPart(t *testing.T, m *Minio, key string) {
	t.Helper()
	core := minio.Core{Client: m.client}
	testutil.Eventually(t, 30*time.Second, func() error {
		for _, u := range uploadsOf(t, m, key) {
			res, err := core.ListObjectParts(t.Context(), m.bucket, key, u.UploadID, 0, 1000)
			if err != nil {
				return err
			}
			if len(res.ObjectParts) > 0 {
				return nil
			}
		}
		return errors.New("no part uploaded yet")
	})
}

// uploadsOf lists the incomplete uploads of key.
func uploadsOf(t *testing.T, m *Minio, key string) []minio.ObjectMultipartInfo {
	t.Helper()
	var out []minio.ObjectMultipartInfo
	for u := range m.client.ListIncompleteUploads(t.Context(), m.bucket, key, true) {
		if u.Err != nil {
			t.Fatal(fmt.Errorf("list uploads of %s: %w", key, u.Err))
		}
		if u.Key == key {
			out = append(out, u)
		}
	}
	return out
}

// keysUnder lists the keys of the objects under prefix.
func keysUnder(t *testing.T, s Store, prefix string) []string {
	t.Helper()
	var keys []string
	if err := s.List(t.Context(), prefix, func(o Object) bool { keys = append(keys, o.Key); return true }); err != nil {
		t.Fatal(err)
	}
	return keys
}
