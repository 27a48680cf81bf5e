package topology

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/tasks"
)

// taskWatch sees every write of the task-state bucket as it happens: a
// core NATS subscription on the bucket's subjects receives each KV put,
// including two quick puts of the same key that the bucket itself keeps
// only the last of. A task completed twice shows up as two "done" puts.
type taskWatch struct {
	sub *nats.Subscription

	mu     sync.Mutex
	seq    int
	done   map[string][]doneEvent
	failed map[string]tasks.State
	slow   bool
}

// doneEvent is one "done" put of a task.
type doneEvent struct {
	order    int // arrival order among all done puts
	at       time.Time
	attempts int
}

func watchTasks(t *testing.T, nc *nats.Conn) *taskWatch {
	t.Helper()
	w := &taskWatch{done: map[string][]doneEvent{}, failed: map[string]tasks.State{}}
	sub, err := nc.Subscribe(fmt.Sprintf("$KV.%s.>", tasks.BucketName), w.handle)
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		t.Fatal(err)
	}
	w.sub = sub
	nc.SetErrorHandler(func(_ *nats.Conn, s *nats.Subscription, err error) {
		if s == sub {
			w.mu.Lock()
			w.slow = true
			w.mu.Unlock()
		}
	})
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return w
}

func (w *taskWatch) handle(m *nats.Msg) {
	if len(m.Data) == 0 || m.Header.Get("KV-Operation") != "" { // deletes and purges
		return
	}
	var st tasks.State
	if err := json.Unmarshal(m.Data, &st); err != nil {
		return
	}
	if st.ID == "" {
		st.ID = m.Subject[strings.LastIndex(m.Subject, ".")+1:]
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch st.Status {
	case tasks.Done:
		w.seq++
		w.done[st.ID] = append(w.done[st.ID], doneEvent{order: w.seq, at: time.Now(), attempts: st.Attempts})
	case tasks.Failed:
		w.failed[st.ID] = st
	}
}

// snapshot returns copies of what was seen so far.
func (w *taskWatch) snapshot() (done map[string][]doneEvent, failed map[string]tasks.State, slow bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	done = make(map[string][]doneEvent, len(w.done))
	for k, v := range w.done {
		done[k] = append([]doneEvent(nil), v...)
	}
	failed = make(map[string]tasks.State, len(w.failed))
	for k, v := range w.failed {
		failed[k] = v
	}
	return done, failed, w.slow
}

// waitFinished waits until every id is done or failed, or timeout.
func (w *taskWatch) waitFinished(ids []string, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		done, failed, _ := w.snapshot()
		pending := 0
		for _, id := range ids {
			if len(done[id]) == 0 && failed[id].ID == "" {
				pending++
			}
		}
		if pending == 0 {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}
