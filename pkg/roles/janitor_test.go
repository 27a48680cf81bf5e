package roles

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"docsuite/pkg/bus"
	"docsuite/pkg/config"
	"docsuite/pkg/store"
	"docsuite/pkg/tasks"
	"docsuite/pkg/testutil"
)

// TestJanitorKeepsQueuedTasks runs the janitor role as its process does,
// on its own NATS connection, with an age of zero (every object is old):
// the input of a task still queued stays, what a task without a record
// left goes. The queued task's input comes first in the sweep (the folder
// store lists in key order), so once the orphan's is gone its has been
// judged.
func TestJanitorKeepsQueuedTasks(t *testing.T) {
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	gw, err := bus.Connect(ns.ClientURL(), "gateway", log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(gw.Close)
	q, err := tasks.Open(ctx, gw, st, tasks.Options{TTL: time.Hour, Timeout: time.Minute}, log)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id     string
		queued bool
	}{
		{"a-queued", true},
		{"b-orphan", false},
	}
	for _, tc := range tests {
		if err := st.Put(ctx, tasks.InputPrefix(tc.id)+"input", []byte("file")); err != nil {
			t.Fatal(err)
		}
		if tc.queued {
			if err := q.Enqueue(ctx, tasks.Job{ID: tc.id, Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	time.Sleep(10 * time.Millisecond) // the objects are older than now
	nc, err := bus.Connect(ns.ClientURL(), "janitor", log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	go func() { _ = Janitor(ctx, Deps{NC: nc, Store: st, Log: log}, config.Common{}, time.Hour) }()
	testutil.Eventually(t, 5*time.Second, func() error {
		if _, err := st.Get(ctx, tasks.InputPrefix("b-orphan")+"input"); !errors.Is(err, store.ErrNotFound) {
			return errors.New("the orphan's input is still there")
		}
		return nil
	})
	for _, tc := range tests {
		_, err := st.Get(ctx, tasks.InputPrefix(tc.id)+"input")
		if kept := err == nil; kept != tc.queued {
			t.Errorf("input of %s kept: %v, want %v (%v)", tc.id, kept, tc.queued, err)
		}
	}
}
