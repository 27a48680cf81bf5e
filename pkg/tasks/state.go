// Package tasks runs asynchronous requests: a JetStream work queue ordered
// by priority, task state in a NATS KV bucket readable from every gateway
// replica, results in the object store. A task is acknowledged only after
// its result is stored, so a gateway that dies mid-task loses nothing: the
// task is redelivered to another runner, and a redelivered task that had
// already finished is recognised and not run twice.
package tasks

import (
	"encoding/json"
	"time"

	"docsuite/pkg/apierr"
)

// Status is where a task stands.
type Status string

// Task statuses.
const (
	Queued  Status = "queued"
	Running Status = "running"
	Done    Status = "done"
	Failed  Status = "failed"
	// Answered is a request answered synchronously: its task_id is
	// known, its result was in the reply and is not kept.
	Answered Status = "answered"
)

// Job is what a runner needs to execute a task; it travels in the queue.
type Job struct {
	ID       string          `json:"id"`
	Method   string          `json:"method"`
	InputKey string          `json:"input_key"`
	Size     int64           `json:"size"`
	Params   json.RawMessage `json:"params"`
	Priority int             `json:"priority"`
	// Owner is the hash of the token that created the task, as in its
	// State: a record lost while the task waited (see Queue.restore) is
	// written again from its message, with the same owner.
	Owner string `json:"owner,omitempty"`
	// Format is jobFormat in the messages of this release, which always
	// say who owns their task (an empty Owner: an on-premises task, read
	// with its id alone). It is 0 in a message of an earlier release,
	// whose empty Owner says nothing: the releases before 2026-12-07 put
	// no owner in any message, a hosted task's included.
	Format int `json:"format,omitempty"`
}

// jobFormat is the Format of the job messages this release writes.
const jobFormat = 1

// ownerKnown reports whether the message says who owns its task.
func (j Job) ownerKnown() bool { return j.Format >= jobFormat || j.Owner != "" }

// State is a task's record in the KV bucket.
type State struct {
	ID         string       `json:"id"`
	Method     string       `json:"method"`
	Status     Status       `json:"status"`
	Owner      string       `json:"owner"` // hash of the token that created the task
	Priority   int          `json:"priority"`
	Created    time.Time    `json:"created"`
	Started    time.Time    `json:"started,omitzero"`
	Completed  time.Time    `json:"completed,omitzero"`
	PagesDone  int          `json:"pages_done"`
	PagesTotal int          `json:"pages_total"`
	Attempts   int          `json:"attempts"`
	ResultKey  string       `json:"result_key,omitempty"`
	Error      *apierr.Body `json:"error,omitempty"`
}

// Expired reports whether a finished task's result has outlived ttl.
func (s State) Expired(now time.Time, ttl time.Duration) bool {
	return !s.Completed.IsZero() && now.Sub(s.Completed) > ttl
}

// Unfinished reports whether the task is queued or running: its record
// and its stored input are still needed, however long it has waited.
func (s State) Unfinished() bool {
	return s.Status == Queued || s.Status == Running
}

// ResultKey is where a task's result body is stored.
func ResultKey(id string) string { return "results/" + id + ".json" }

// InputPrefix is where a task's input and intermediates are stored.
func InputPrefix(id string) string { return "tasks/" + id + "/" }
