package tasks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// TestLostRecordKeepsItsOwner checks the tasks whose record the bucket lost
// while they waited (no gateway ran for longer than its TTL, or the TTL was
// lowered at a restart) and whose message the stream still holds. A message
// that says who owns its task (this release writes the owner of every
// task, none for an on-premises one; a hosted task's owner since
// 2026-12-07) is run again under that owner. A message of an earlier
// release that names no owner may be a hosted task's, bound to its token:
// restored ownerless, it ran and its result (a passport's fields) was read
// by anyone with its id, without the token or with another one. It is
// recorded as failed instead, not run, and its input removed.
func TestLostRecordKeepsItsOwner(t *testing.T) {
	const hosted = "owner-hash"
	for _, tc := range []struct {
		name string
		// raw, when set, is the message as an earlier release wrote it
		// (%s: the input key); otherwise the task is enqueued by this
		// release with owner.
		raw       string
		owner     string
		wantRun   bool
		wantOwner string
	}{
		{name: "this release, on-premises", owner: "", wantRun: true, wantOwner: ""},
		{name: "this release, hosted", owner: hosted, wantRun: true, wantOwner: hosted},
		{name: "earlier release with its owner",
			raw:     `{"id":"%[1]s","method":"recognize","input_key":"%[2]s","size":8,"params":{},"priority":3,"owner":"` + hosted + `"}`,
			wantRun: true, wantOwner: hosted},
		{name: "earlier release without an owner",
			raw:     `{"id":"%[1]s","method":"recognize","input_key":"%[2]s","size":8,"params":{},"priority":3}`,
			wantRun: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			q, _ := e.queue(t)
			ctx := t.Context()
			const id = "0123456789abcdef0123456789abcdef"
			input := InputPrefix(id) + "input"
			if err := e.store.Put(ctx, input, []byte("the file")); err != nil {
				t.Fatal(err)
			}
			if tc.raw != "" {
				if _, err := q.js.Publish(ctx, subjectPrefix+"3", fmt.Appendf(nil, tc.raw, id, input)); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := q.Enqueue(ctx, Job{ID: id, Method: "recognize", InputKey: input, Priority: 3}, tc.owner); err != nil {
					t.Fatal(err)
				}
				// The record is lost, the message stays.
				if err := q.kv.Purge(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			var ran []string
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			go q.Run(runCtx, 1, func(_ context.Context, j Job, _ Progress) ([]byte, error) {
				mu.Lock()
				defer mu.Unlock()
				ran = append(ran, j.ID)
				return []byte(`{"fields":"of a passport"}`), nil
			})
			var st State
			testutil.Eventually(t, 10*time.Second, func() error {
				var ok bool
				var err error
				st, ok, err = q.Get(ctx, id)
				if err != nil || !ok || st.Unfinished() {
					return fmt.Errorf("state %+v %v %v, want it finished", st, ok, err)
				}
				return nil
			})
			// The message is settled either way: the stream holds no task.
			testutil.Eventually(t, 5*time.Second, func() error {
				if n, err := q.Depth(ctx); err != nil || n != 0 {
					return fmt.Errorf("stream holds %d tasks (%v), want none", n, err)
				}
				return nil
			})
			mu.Lock()
			didRun := len(ran) > 0
			mu.Unlock()
			if didRun != tc.wantRun {
				t.Errorf("task ran: %v, want %v (state %+v)", didRun, tc.wantRun, st)
			}
			if tc.wantRun {
				if st.Status != Done || st.Owner != tc.wantOwner {
					t.Errorf("restored as %s owned by %q, want done owned by %q", st.Status, st.Owner, tc.wantOwner)
				}
				return
			}
			if st.Status != Failed || st.Error == nil || st.Error.Errno != apierr.New(apierr.TaskFailed, "").Envelope().Errno ||
				!strings.Contains(st.Error.Message, "token") {
				t.Errorf("state %s with error %+v, want task_failed saying the token is not known", st.Status, st.Error)
			}
			if st.ResultKey != "" {
				t.Errorf("a result key %q for a task never run", st.ResultKey)
			}
			if _, err := e.store.Get(ctx, input); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("input of a task refused kept: %v", err)
			}
			if _, err := q.kv.Get(ctx, id); errors.Is(err, jetstream.ErrKeyNotFound) {
				t.Error("no record: /result would answer 404 for an accepted task")
			}
		})
	}
}
