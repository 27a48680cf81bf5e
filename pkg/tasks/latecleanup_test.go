package tasks

import (
	"context"
	"fmt"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// TestLateCropOfFailedTaskIsRemoved: a task whose try ends without an
// answer (a document's failure, its time up) while a stage worker that
// missed the cancellation still works on it; the worker writes its crop
// after the cleanup at completion. That crop is removed LateCleanup after
// the task completed, not by the janitor PIPELINE_TIMEOUT +
// COMPLETED_TASK_TTL_SECONDS on (an hour and more by default).
func TestLateCropOfFailedTaskIsRemoved(t *testing.T) {
	tests := []struct {
		name string
		// fail ends a try the way the task's method would.
		fail func(ctx context.Context) error
	}{
		{"failed at once", func(context.Context) error { return apierr.New(apierr.CorruptFile, "") }},
		{"timed out twice", func(ctx context.Context) error {
			<-ctx.Done()
			return apierr.Wrap(apierr.PipelineTimeout, ctx.Err(), "")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.opts.Timeout = 300 * time.Millisecond
			e.opts.LateCleanup = 2 * time.Second
			q, _ := e.queue(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			written := make(chan error, 4)
			go q.Run(ctx, 1, func(ctx context.Context, j Job, _ Progress) ([]byte, error) {
				// The straggler: a worker that writes its crop after the
				// try has ended and the task was cleaned up.
				go func() {
					time.Sleep(700 * time.Millisecond)
					written <- e.store.Put(context.Background(), InputPrefix(j.ID)+"p0_d0.raw", make([]byte, 1<<12))
				}()
				return nil, tc.fail(ctx)
			})
			if err := q.Enqueue(ctx, Job{ID: "late", Priority: 1, InputKey: InputPrefix("late") + "input"}, ""); err != nil {
				t.Fatal(err)
			}
			testutil.Eventually(t, 10*time.Second, func() error {
				if st, _, _ := q.Get(ctx, "late"); st.Status != Failed {
					return fmt.Errorf("state %s, want failed", st.Status)
				}
				return nil
			})
			// The last try's straggler writes 0.7 s after the task
			// completed; the late cleanup comes 2 s after.
			time.Sleep(1200 * time.Millisecond)
			for len(written) > 0 {
				if err := <-written; err != nil {
					t.Fatal(err)
				}
			}
			if left := keysUnder(t, e.store, InputPrefix("late")); len(left) == 0 {
				t.Fatal("the straggler's crop is not there: the test does not show the case")
			}
			testutil.Eventually(t, 4*time.Second, func() error {
				if left := keysUnder(t, e.store, InputPrefix("late")); len(left) > 0 {
					return fmt.Errorf("left behind after the task completed: %v", left)
				}
				return nil
			})
		})
	}
}

// keysUnder lists the keys st holds under prefix.
func keysUnder(t *testing.T, st store.Store, prefix string) []string {
	t.Helper()
	var keys []string
	if err := st.List(context.Background(), prefix, func(o store.Object) bool {
		keys = append(keys, o.Key)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return keys
}
