package bus

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/nats-io/nats.go"
)

// ProgressSubject is the subject on which a worker running a whole method
// for a task (full-text OCR, recognize) reports the pages it has done.
func ProgressSubject(taskID string) string { return "docsuite.progress." + taskID }

// progressMsg is one progress report.
type progressMsg struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// PublishProgress reports done pages out of total for a task. Progress is
// advisory: a report that cannot be sent is dropped (the error says why),
// never failing the work.
func PublishProgress(nc *nats.Conn, taskID string, done, total int) error {
	if nc == nil || taskID == "" {
		return nil
	}
	data, err := json.Marshal(progressMsg{Done: done, Total: total})
	if err != nil {
		return fmt.Errorf("bus: encode progress: %w", err)
	}
	if err := nc.Publish(ProgressSubject(taskID), data); err != nil {
		return fmt.Errorf("bus: publish progress of %s: %w", taskID, err)
	}
	return nil
}

// FollowProgress passes a task's progress reports to fn until the
// returned stop is called; fn is never called after stop returns, nor
// twice at once.
func FollowProgress(nc *nats.Conn, taskID string, fn func(done, total int)) (stop func(), err error) {
	var mu sync.Mutex
	stopped := false
	sub, err := nc.Subscribe(ProgressSubject(taskID), func(m *nats.Msg) {
		var p progressMsg
		if json.Unmarshal(m.Data, &p) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			fn(p.Done, p.Total)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("bus: follow progress of %s: %w", taskID, err)
	}
	// The subscription is in place on the server before the request that
	// starts the work goes out.
	if err := nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("bus: follow progress of %s: %w", taskID, err)
	}
	return func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
		_ = sub.Unsubscribe()
	}, nil
}
