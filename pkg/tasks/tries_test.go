package tasks

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// TestProgressStartsAgainWithEachTry checks the progress a polling client
// reads of a task tried again: the second try starts from no pages done,
// not from the three of four its first try had reported, whether the
// first try failed for a dependency down (tried again by the same runner),
// its runner shut down under it, or its runner died (its connection gone,
// redelivered after AckWait). Pages of a try that ended without an answer
// are not shown as done while the task waits for its next try either,
// where its runner lives to say so.
func TestProgressStartsAgainWithEachTry(t *testing.T) {
	tests := []struct {
		name string
		end  string // how the first try ends: "failed", "shutdown" or "died"
	}{
		{"first try failed for a dependency down", "failed"},
		{"first runner shut down", "shutdown"},
		{"first runner died", "died"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			q, _ := e.queue(t)
			ctx := t.Context()
			var mu sync.Mutex
			tries := 0
			var atSecond State // the record as the second try starts
			firstReported := make(chan struct{})
			exec := func(ctx context.Context, _ Job, progress Progress) ([]byte, error) {
				mu.Lock()
				tries++
				n := tries
				mu.Unlock()
				if n == 1 {
					for done := range 4 {
						progress(done, 4)
					}
					close(firstReported)
					if tc.end == "failed" {
						return nil, apierr.Wrap(apierr.DependencyDown, errors.New("no orient worker"), "")
					}
					<-ctx.Done()
					return nil, ctx.Err()
				}
				st, _, err := q.Get(ctx, "retried")
				if err != nil {
					return nil, err
				}
				mu.Lock()
				atSecond = st
				mu.Unlock()
				progress(1, 4)
				return []byte(`{}`), nil
			}
			firstCtx, stopFirst := context.WithCancel(ctx)
			defer stopFirst()
			first, firstNC := e.queue(t)
			firstDone := make(chan error, 1)
			go func() { firstDone <- first.Run(firstCtx, 1, exec) }()
			if err := q.Enqueue(ctx, Job{ID: "retried", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			select {
			case <-firstReported:
			case <-time.After(10 * time.Second):
				t.Fatal("the first try reported no progress")
			}
			switch tc.end {
			case "shutdown":
				stopFirst()
				if err := awaitRun(firstDone); err != nil {
					t.Fatal(err)
				}
				// The task waits for a runner: its record says no page done.
				if st, _, _ := q.Get(ctx, "retried"); st.PagesDone != 0 || st.PagesTotal != 4 {
					t.Errorf("handed back on shutdown: pages %d of %d, want 0 of 4", st.PagesDone, st.PagesTotal)
				}
			case "died":
				firstNC.Close()
			}
			if tc.end != "failed" {
				go func() { _ = q.Run(ctx, 1, exec) }()
			}
			testutil.Eventually(t, 15*time.Second, func() error {
				if st, _, _ := q.Get(ctx, "retried"); st.Status != Done {
					return fmt.Errorf("state %s after %d tries", st.Status, st.Attempts)
				}
				return nil
			})
			mu.Lock()
			defer mu.Unlock()
			if atSecond.Attempts != 2 || atSecond.PagesDone != 0 || atSecond.PagesTotal != 4 {
				t.Errorf("as the second try started: try %d, pages %d of %d; want try 2, pages 0 of 4 (the first try's 3 are not done by it)",
					atSecond.Attempts, atSecond.PagesDone, atSecond.PagesTotal)
			}
		})
	}
}

// TestTaskFinishedAtShutdownIsNotRunAgain shuts a runner down as its task
// answers (the gateway told to stop while the task's last stage replies):
// the task is recorded as done with that answer before Run returns, its
// input removed, and another runner started after it neither runs it again
// nor changes its answer. The runner used to hand such a task back
// unrecorded, and the next gateway computed its result a second time.
func TestTaskFinishedAtShutdownIsNotRunAgain(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	first, firstNC := e.queue(t)
	runCtx, shutdown := context.WithCancel(ctx)
	defer shutdown()
	stopped := make(chan error, 1)
	go func() {
		stopped <- first.Run(runCtx, 1, func(ctx context.Context, _ Job, progress Progress) ([]byte, error) {
			progress(1, 1)
			shutdown()
			<-ctx.Done() // the answer is there as the shutdown reaches the try
			return []byte(`{"run":"first"}`), nil
		})
	}()
	if err := e.store.Put(ctx, InputPrefix("last")+"input", []byte("file")); err != nil {
		t.Fatal(err)
	}
	if err := first.Enqueue(ctx, Job{ID: "last", Priority: 1}, ""); err != nil {
		t.Fatal(err)
	}
	if err := awaitRun(stopped); err != nil {
		t.Fatal(err)
	}
	// The gateway's process ends as a role's does: its connection drained.
	if err := firstNC.Drain(); err != nil {
		t.Fatal(err)
	}
	q, _ := e.queue(t)
	checkDone := func(when string) {
		t.Helper()
		st, ok, err := q.Get(ctx, "last")
		if err != nil || !ok || st.Status != Done {
			t.Errorf("%s: state %s (ok %v, err %v), want done", when, st.Status, ok, err)
			return
		}
		if body, err := q.Result(ctx, st); err != nil || string(body) != `{"run":"first"}` {
			t.Errorf("%s: result %s (%v), want the first run's", when, body, err)
		}
	}
	checkDone("once the first runner stopped")
	if _, err := e.store.Get(ctx, InputPrefix("last")+"input"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("input left after the task was done: %v", err)
	}
	var mu sync.Mutex
	runs := 0
	go func() {
		_ = q.Run(ctx, 1, func(context.Context, Job, Progress) ([]byte, error) {
			mu.Lock()
			runs++
			mu.Unlock()
			return []byte(`{"run":"second"}`), nil
		})
	}()
	// A task handed back is delivered again at once, one left unacknowledged
	// after AckWait; the idle runner looks every idlePoll.
	time.Sleep(2*e.opts.AckWait + idlePoll)
	mu.Lock()
	defer mu.Unlock()
	if runs != 0 {
		t.Errorf("the task ran %d more times on the next runner, want none", runs)
	}
	checkDone("after the next runner started")
}

// awaitRun waits for a runner's Run to return after its context ended.
func awaitRun(stopped <-chan error) error {
	select {
	case err := <-stopped:
		return err
	case <-time.After(15 * time.Second):
		return errors.New("the runner did not stop")
	}
}
