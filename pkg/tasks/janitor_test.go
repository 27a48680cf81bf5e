package tasks

import (
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/bus"
	"docsuite/pkg/store"
)

// TestSweepKeepsUnfinishedTasks checks what the janitor's sweep removes of
// objects past its age, by the record of the task they belong to: a
// queued or running task keeps its input and intermediates; a finished
// task's leftovers and result, a sync answer's input and the objects of a
// task without a record (expired long ago) go, as before.
func TestSweepKeepsUnfinishedTasks(t *testing.T) {
	e := newEnv(t)
	q, nc := e.queue(t)
	ctx := t.Context()
	tests := []struct {
		id     string
		status Status // "": no record
		kept   bool
	}{
		{"queued1", Queued, true},
		{"running1", Running, true},
		{"done1", Done, false},
		{"failed1", Failed, false},
		{"answered1", Answered, false},
		{"unknown1", "", false},
	}
	for _, tc := range tests {
		if tc.status != "" {
			st := State{ID: tc.id, Status: tc.status, Created: time.Now().UTC()}
			if !st.Unfinished() {
				st.Completed = st.Created
			}
			if err := q.put(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		putObjects(t, e.store, taskObjects(tc.id, tc.status == Done)...)
	}
	records, err := NewRecords(nc)
	if err != nil {
		t.Fatal(err)
	}
	// Every object counts as old: the cutoff is a minute ahead.
	for _, s := range Sweep(ctx, e.store, records, time.Now().Add(time.Minute)) {
		if s.Err != nil {
			t.Fatalf("sweep of %s: %v", s.Prefix, s.Err)
		}
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			for _, key := range taskObjects(tc.id, tc.status == Done) {
				_, err := e.store.Get(ctx, key)
				if tc.kept && err != nil {
					t.Errorf("%s of a %s task removed: %v", key, tc.status, err)
				}
				if !tc.kept && !errors.Is(err, store.ErrNotFound) {
					t.Errorf("%s of a %q task kept (%v)", key, tc.status, err)
				}
			}
		})
	}
}

// TestSweepWithoutRecords checks the sweep where no record can be read:
// before any gateway has created the bucket there is no task and old
// objects go; while NATS cannot be reached nothing under tasks/ goes (the
// sweep says why), old results still do.
func TestSweepWithoutRecords(t *testing.T) {
	tests := []struct {
		name      string
		natsDown  bool
		inputKept bool
	}{
		{"no bucket yet", false, false},
		{"NATS unreachable", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			nc, records := e.janitor(t)
			if tc.natsDown {
				nc.Close()
			}
			keys := taskObjects("orphan", true)
			putObjects(t, e.store, keys...)
			for _, s := range Sweep(t.Context(), e.store, records, time.Now().Add(time.Minute)) {
				if wantErr := tc.natsDown && s.Prefix == "tasks/"; (s.Err != nil) != wantErr {
					t.Errorf("sweep of %s: error %v, want one: %v", s.Prefix, s.Err, wantErr)
				}
			}
			for _, key := range keys {
				_, err := e.store.Get(t.Context(), key)
				kept := err == nil
				if want := tc.inputKept && key != ResultKey("orphan"); kept != want {
					t.Errorf("%s kept: %v, want %v (%v)", key, kept, want, err)
				}
			}
		})
	}
}

// taskObjects are the keys a task leaves in the store: its input, an
// intermediate image and, when it finished, its result.
func taskObjects(id string, finished bool) []string {
	keys := []string{InputPrefix(id) + "input", InputPrefix(id) + "page-1.jpg"}
	if finished {
		keys = append(keys, ResultKey(id))
	}
	return keys
}

// putObjects stores a few bytes under each key.
func putObjects(t *testing.T, st store.Store, keys ...string) {
	t.Helper()
	for _, key := range keys {
		if err := st.Put(t.Context(), key, []byte("object")); err != nil {
			t.Fatal(err)
		}
	}
}

// janitor connects to the test's NATS as the janitor does, the connection
// closed when the test ends, and binds the task records through it.
func (e env) janitor(t *testing.T) (*nats.Conn, *Records) {
	t.Helper()
	nc, err := bus.Connect(e.url, "janitor", quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	records, err := NewRecords(nc)
	if err != nil {
		t.Fatal(err)
	}
	return nc, records
}
