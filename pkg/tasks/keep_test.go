package tasks

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// TestWaitingTaskIsKept checks a task that waits in the queue longer than
// its record's TTL and the janitor's age (with the defaults about 63 and
// 62 minutes; here 5 and 2 seconds): /result still finds it queued (202)
// all the while, the janitor's sweep leaves its input, and it completes
// (200, its body) once a runner takes it. Its record expired while it
// waited: /result answered 404 task_not_found for a task still queued and
// its runner dropped it; and the janitor removed its input.
func TestWaitingTaskIsKept(t *testing.T) {
	tests := []struct {
		name   string
		level  int           // priority of the tasks that run before it
		ahead  int           // how many of them are queued before it
		refill bool          // each of them queues another until the check is done
		work   time.Duration // how long each of them runs
	}{
		{"behind a long backlog", 1, 60, false, 150 * time.Millisecond},
		{"starved by higher priorities", 9, 3, true, 50 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.opts.TTL, e.opts.Timeout = time.Second, time.Second
			q, nc := e.queue(t)
			records, err := NewRecords(nc)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var starving atomic.Bool
			starving.Store(tc.refill)
			var next atomic.Int64
			enqueueAhead := func() {
				id := fmt.Sprintf("ahead-%d", next.Add(1))
				if err := q.Enqueue(ctx, Job{ID: id, Priority: tc.level}, ""); err != nil && ctx.Err() == nil {
					t.Error(err)
				}
			}
			for range tc.ahead {
				enqueueAhead()
			}
			input := InputPrefix("waiting") + "input"
			if err := e.store.Put(ctx, input, []byte("the file")); err != nil {
				t.Fatal(err)
			}
			if err := q.Enqueue(ctx, Job{ID: "waiting", InputKey: input, Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			queued := time.Now()
			go q.Run(ctx, 1, func(ctx context.Context, j Job, _ Progress) ([]byte, error) {
				if j.ID != "waiting" {
					time.Sleep(tc.work)
					if starving.Load() {
						enqueueAhead()
					}
					return []byte(`{}`), nil
				}
				if _, err := e.store.Get(ctx, j.InputKey); err != nil {
					return nil, err
				}
				return []byte(`{"ok":"waiting"}`), nil
			})
			st := watchWaiting(t, q, queued, func() {
				checkInputKept(t, e.store, records, input, q.opts.Timeout+q.opts.TTL)
				starving.Store(false)
			})
			body, err := q.Result(ctx, st)
			if err != nil || string(body) != `{"ok":"waiting"}` {
				t.Fatalf("result %s %v, want the task's body", body, err)
			}
			if _, err := e.store.Get(ctx, input); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("input left after the task completed: %v", err)
			}
		})
	}
}

// watchWaiting reads task "waiting" as /result does until it is done and
// returns its state. Once it has been queued for longer than its record's
// TTL, still queued, check runs. Any read that would not answer 202 or
// 200 fails the test.
func watchWaiting(t *testing.T, q *Queue, queued time.Time, check func()) State {
	t.Helper()
	ctx := t.Context()
	checked := false
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		st, ok, err := q.Get(ctx, "waiting")
		if err != nil {
			t.Fatal(err)
		}
		waited := time.Since(queued).Round(100 * time.Millisecond)
		switch {
		case !ok:
			t.Fatalf("queued %s ago (record TTL %s), /result answers 404 task_not_found: its record is gone",
				waited, q.opts.recordTTL())
		case st.Status == Failed:
			t.Fatalf("queued %s ago, failed: %+v", waited, st.Error)
		case st.Status == Done && !checked:
			t.Fatalf("done after %s: it never waited past its record TTL %s", waited, q.opts.recordTTL())
		case st.Status == Done:
			return st
		case !checked && waited > q.opts.recordTTL()+time.Second:
			if st.Status != Queued {
				t.Fatalf("%s after %s, want still queued", st.Status, waited)
			}
			check()
			checked = true
		}
	}
	t.Fatal("the waiting task did not complete within 60 s")
	return State{}
}

// checkInputKept runs the janitor's sweep with its age (PIPELINE_TIMEOUT +
// COMPLETED_TASK_TTL_SECONDS) and checks the input at key is still there.
func checkInputKept(t *testing.T, st store.Store, records *Records, key string, age time.Duration) {
	t.Helper()
	for _, s := range Sweep(t.Context(), st, records, time.Now().Add(-age)) {
		if s.Err != nil {
			t.Fatalf("sweep of %s: %v", s.Prefix, s.Err)
		}
	}
	if _, err := st.Get(t.Context(), key); err != nil {
		t.Fatalf("the janitor removed the queued task's input: %v", err)
	}
}

// TestKeepRenewsOnlyWaitingRecords checks which records the runners keep
// alive: those of queued and running tasks stay past the record TTL,
// those of finished tasks and sync answers expire with it, as before.
func TestKeepRenewsOnlyWaitingRecords(t *testing.T) {
	e := newEnv(t)
	e.opts.TTL, e.opts.Timeout, e.opts.AckWait = 200*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond
	q, _ := e.queue(t)
	ctx := t.Context()
	tests := []struct {
		status Status
		kept   bool
	}{
		{Queued, true},
		{Running, true},
		{Done, false},
		{Failed, false},
		{Answered, false},
	}
	for _, tc := range tests {
		id := string(tc.status)
		st := State{ID: id, Status: tc.status, Created: time.Now().UTC()}
		// A finished task's message is acknowledged, so gone from the
		// stream, once its record says so; a message still there is a
		// task not finished, whose lost record is written again
		// (TestRecordLostWhileNoGatewayRan).
		if st.Unfinished() {
			if err := q.Enqueue(ctx, Job{ID: id, Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
		}
		if !st.Unfinished() {
			st.Completed = st.Created
		}
		if err := q.put(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	// No runner takes the tasks: their messages stay in the stream, and
	// the renewal passes run here as Run runs them.
	start := time.Now()
	testutil.Eventually(t, 15*time.Second, func() error {
		if err := q.keepPass(ctx); err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			_, err := q.kv.Get(ctx, string(tc.status))
			gone := errors.Is(err, jetstream.ErrKeyNotFound)
			if err != nil && !gone {
				t.Fatal(err)
			}
			if tc.kept && gone {
				t.Fatalf("record of a %s task expired after %s (record TTL %s)", tc.status, time.Since(start), q.opts.recordTTL())
			}
			if !tc.kept && !gone {
				return fmt.Errorf("record of a %s task still held after %s", tc.status, time.Since(start))
			}
		}
		if time.Since(start) < 2*q.opts.recordTTL() {
			return fmt.Errorf("only %s past", time.Since(start))
		}
		return nil
	})
}
