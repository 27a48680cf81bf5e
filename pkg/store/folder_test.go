package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestFolderPutWhileDeleting puts objects into new task folders while
// other tasks' last objects are deleted beside them, as concurrent
// requests do: a Delete prunes the folders it empties, up to the root,
// and a Put must not fail because the parent it had just made (tasks/)
// was pruned under it.
func TestFolderPutWhileDeleting(t *testing.T) {
	s, err := NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const workers, rounds = 4, 500
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				key := fmt.Sprintf("tasks/w%d-%d/input", w, i)
				if err := s.Put(ctx, key, []byte("x")); err != nil {
					errs <- err
					continue
				}
				if err := s.Delete(ctx, key); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n == 0 {
			t.Error(err)
		}
		n++
	}
	if n > 0 {
		t.Errorf("%d of %d puts or deletes failed", n, workers*rounds)
	}
}

// TestNewFolderRemovesOldPartialPuts: a Put's temporary file that a killed
// process left (older than partialAge) is gone when the store opens again;
// a recent one, possibly another process's Put under way, and objects
// stay.
func TestNewFolderRemovesOldPartialPuts(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tasks", "abc")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	old, recent, object := filepath.Join(dir, ".put-111"), filepath.Join(dir, ".put-222"), filepath.Join(dir, "p0_d0.raw")
	for _, p := range []string{old, recent, object} {
		if err := os.WriteFile(p, []byte("x"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-2 * partialAge)
	for _, p := range []string{old, object} {
		if err := os.Chtimes(p, long, long); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := NewFolder(root); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		gone bool
	}{{old, true}, {recent, false}, {object, false}} {
		_, err := os.Stat(tc.path)
		if gone := os.IsNotExist(err); gone != tc.gone {
			t.Errorf("%s: removed %t, want %t", filepath.Base(tc.path), gone, tc.gone)
		}
	}
}
