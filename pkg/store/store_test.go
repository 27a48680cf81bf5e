package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"testing"
	"time"

	"docsuite/pkg/testutil"
)

// conformance runs the same behaviour checks against any Store.
func conformance(t *testing.T, s Store) {
	ctx := context.Background()
	big := make([]byte, 20<<20) // over the 16 MiB size that broke a fake S3 server
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		data []byte
	}{
		{"tasks/a/input", []byte("hello")},
		{"tasks/a/p1_d0.raw", big},
		{"tasks/b/input", []byte("other task")},
	}
	for _, tc := range tests {
		if err := s.Put(ctx, tc.key, tc.data); err != nil {
			t.Fatalf("put %s: %v", tc.key, err)
		}
	}
	for _, tc := range tests {
		got, err := s.Get(ctx, tc.key)
		if err != nil || !bytes.Equal(got, tc.data) {
			t.Fatalf("get %s: %d bytes, err %v", tc.key, len(got), err)
		}
	}
	if _, err := s.Get(ctx, "tasks/none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing key: want ErrNotFound, got %v", err)
	}
	// An empty object reads back empty, not as an error.
	if err := s.Put(ctx, "tasks/e/empty", nil); err != nil {
		t.Fatalf("put empty: %v", err)
	}
	if got, err := s.Get(ctx, "tasks/e/empty"); err != nil || len(got) != 0 {
		t.Errorf("get empty: %d bytes, err %v", len(got), err)
	}
	if err := s.Delete(ctx, "tasks/e/empty"); err != nil {
		t.Fatalf("delete empty: %v", err)
	}
	// PutReader: from a reader that only reads (no seeking, no reading at
	// offsets), over 16 MiB, as from one that does.
	for _, r := range []io.Reader{struct{ io.Reader }{bytes.NewReader(big)}, bytes.NewReader(big)} {
		if err := s.PutReader(ctx, "tasks/c/stream", r, int64(len(big))); err != nil {
			t.Fatalf("put from a reader: %v", err)
		}
		if got, err := s.Get(ctx, "tasks/c/stream"); err != nil || !bytes.Equal(got, big) {
			t.Fatalf("get what was put from a reader: %d bytes, %v", len(got), err)
		}
	}
	if err := s.DeletePrefix(ctx, "tasks/c/"); err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := s.List(ctx, "tasks/a/", func(o Object) bool { keys = append(keys, o.Key); return true }); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 {
		t.Errorf("list tasks/a/: %v", keys)
	}
	if err := s.DeletePrefix(ctx, "tasks/a/"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "tasks/a/input"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted prefix still readable: %v", err)
	}
	if got, _ := s.Get(ctx, "tasks/b/input"); string(got) != "other task" {
		t.Error("DeletePrefix removed another task's object")
	}
	// The janitor's sweep: nothing is older than an hour ago, everything
	// is older than a minute from now.
	if n, _, err := DeleteOlder(ctx, s, "tasks/", time.Now().Add(-time.Hour), keepNone); err != nil || n != 0 {
		t.Errorf("sweep of fresh objects removed %d (%v)", n, err)
	}
	// An old object its keep asks to keep stays; a keep that fails ends
	// the sweep with nothing removed.
	keepB := func(_ context.Context, key string) (bool, error) { return key == "tasks/b/input", nil }
	if n, _, err := DeleteOlder(ctx, s, "tasks/", time.Now().Add(time.Minute), keepB); err != nil || n != 0 {
		t.Errorf("sweep removed %d kept objects (%v)", n, err)
	}
	failing := func(context.Context, string) (bool, error) { return false, errors.New("records unavailable") }
	if n, _, err := DeleteOlder(ctx, s, "tasks/", time.Now().Add(time.Minute), failing); err == nil || n != 0 {
		t.Errorf("sweep with a failing keep removed %d (%v), want none and the error", n, err)
	}
	if n, _, err := DeleteOlder(ctx, s, "tasks/", time.Now().Add(time.Minute), keepNone); err != nil || n != 1 {
		t.Errorf("sweep of old objects removed %d (%v)", n, err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Error(err)
	}
}

// keepNone keeps no object from a sweep.
func keepNone(context.Context, string) (bool, error) { return false, nil }

func TestFolder(t *testing.T) {
	s, err := NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	conformance(t, s)
	if err := s.Put(context.Background(), "../escape", []byte("x")); err == nil {
		t.Error("a key escaping the root was accepted")
	}
}

func TestMinio(t *testing.T) {
	srv := testutil.StartMinio(t)
	s, err := NewMinio(context.Background(), MinioConfig{Endpoint: srv.Endpoint, AccessKey: srv.AccessKey,
		SecretKey: srv.SecretKey, Bucket: "test"})
	if err != nil {
		t.Fatal(err)
	}
	conformance(t, s)
}
