package tasks

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// TestRecordLostWhileNoGatewayRan checks a task queued while no gateway
// runs for longer than its record's TTL (an all-in-one stopped overnight,
// every gateway down, COMPLETED_TASK_TTL_SECONDS lowered at a restart):
// its record expires in the bucket, but its message is still in the
// stream. The janitor keeps its input, the next gateway writes its record
// again (queued, same owner), and it runs to its result. It used to be
// dropped ("dropping a task whose record has expired"), its input removed
// by the janitor, and /result answered 404 for an accepted task_id.
func TestRecordLostWhileNoGatewayRan(t *testing.T) {
	e := newEnv(t)
	e.opts.TTL, e.opts.Timeout, e.opts.AckWait = 500*time.Millisecond, 500*time.Millisecond, 200*time.Millisecond
	q, nc := e.queue(t)
	ctx := t.Context()
	input := InputPrefix("sleeper") + "input"
	if err := e.store.Put(ctx, input, []byte("the file")); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, Job{ID: "sleeper", Method: "classify", InputKey: input, Priority: 3}, "owner-hash"); err != nil {
		t.Fatal(err)
	}
	// No runner: the record expires.
	testutil.Eventually(t, 10*time.Second, func() error {
		if _, err := q.kv.Get(ctx, "sleeper"); !errors.Is(err, jetstream.ErrKeyNotFound) {
			return fmt.Errorf("record still there (%v)", err)
		}
		return nil
	})
	records, err := NewRecords(nc)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Sweep(ctx, e.store, records, time.Now().Add(time.Minute)) {
		if s.Err != nil {
			t.Fatalf("sweep of %s: %v", s.Prefix, s.Err)
		}
	}
	if _, err := e.store.Get(ctx, input); err != nil {
		t.Fatalf("the janitor removed the input of a task still in the stream: %v", err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	release := make(chan struct{})
	go q.Run(runCtx, 1, func(ctx context.Context, j Job, _ Progress) ([]byte, error) {
		<-release
		if _, err := e.store.Get(ctx, j.InputKey); err != nil {
			return nil, err
		}
		return []byte(`{"ok":"sleeper"}`), nil
	})
	testutil.Eventually(t, 5*time.Second, func() error {
		st, ok, err := q.Get(ctx, "sleeper")
		if err != nil || !ok || !st.Unfinished() {
			return fmt.Errorf("state %+v %v %v, want it queued or running again", st, ok, err)
		}
		if st.Owner != "owner-hash" || st.Method != "classify" || st.Priority != 3 {
			return fmt.Errorf("restored %+v, want its owner, method and priority", st)
		}
		return nil
	})
	close(release)
	var st State
	testutil.Eventually(t, 5*time.Second, func() error {
		var ok bool
		var err error
		st, ok, err = q.Get(ctx, "sleeper")
		if err != nil || !ok || st.Status != Done {
			return fmt.Errorf("state %+v %v %v", st, ok, err)
		}
		return nil
	})
	body, err := q.Result(ctx, st)
	if err != nil || string(body) != `{"ok":"sleeper"}` {
		t.Fatalf("result %s %v", body, err)
	}
	if _, err := e.store.Get(ctx, input); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("input left after the task completed: %v", err)
	}
}
