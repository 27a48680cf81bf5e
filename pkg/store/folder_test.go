package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
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
