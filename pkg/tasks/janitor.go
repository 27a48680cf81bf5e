package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/store"
)

// Records reads task records for the janitor. It binds to the queue's
// bucket without creating or changing it (the gateways set its TTL), once
// a gateway has created it. A Records is used by one goroutine at a time.
type Records struct {
	js jetstream.JetStream
	kv jetstream.KeyValue
}

// NewRecords reads task records over nc.
func NewRecords(nc *nats.Conn) (*Records, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("tasks: jetstream: %w", err)
	}
	return &Records{js: js}, nil
}

// Unfinished reports whether task id is queued or running. Before any
// gateway has created the bucket there is no task at all.
func (r *Records) Unfinished(ctx context.Context, id string) (bool, error) {
	if r.kv == nil {
		kv, err := r.js.KeyValue(ctx, BucketName)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("tasks: bind bucket %s: %w", BucketName, err)
		}
		r.kv = kv
	}
	e, err := r.kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrInvalidKey) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("tasks: read record %s: %w", id, err)
	}
	var st State
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return false, fmt.Errorf("tasks: decode record %s: %w", id, err)
	}
	return st.Unfinished(), nil
}

// Swept is what one janitor sweep removed under one prefix of the store, or
// of its partial writes (PartialWrites).
type Swept struct {
	Prefix  string
	Objects int
	Bytes   int64
	Err     error
}

// Sweep is the janitor's pass over the store: it removes the objects under
// tasks/ (inputs and intermediates) and results/ last written before
// cutoff, except those of a task still queued or running, whose input
// waits for its runner however long the queue is, and then what
// interrupted writes left (store.RemovePartial). The description allows
// removing only what completed tasks left. A record that cannot be read
// ends the pass over tasks/: nothing still needed is removed on a guess.
func Sweep(ctx context.Context, st store.Store, r *Records, cutoff time.Time) []Swept {
	out := make([]Swept, 0, 3)
	for _, prefix := range []string{"tasks/", "results/"} {
		keep := func(context.Context, string) (bool, error) { return false, nil }
		if prefix == "tasks/" {
			keep = r.inputKeeper()
		}
		n, size, err := store.DeleteOlder(ctx, st, prefix, cutoff, keep)
		out = append(out, Swept{Prefix: prefix, Objects: n, Bytes: size, Err: err})
	}
	n, size, err := store.RemovePartial(ctx, st, cutoff)
	return append(out, Swept{Prefix: PartialWrites, Objects: n, Bytes: size, Err: err})
}

// PartialWrites is the Prefix of the Swept that counts the interrupted
// writes a sweep removed (store.RemovePartial): the temporary files of a
// folder store's Puts, and MinIO's incomplete multipart uploads, that a
// killed process never finished, which no listing shows; the files stayed
// until the next start of a process that opens the store, the uploads'
// parts until MinIO's own cleanup a day on.
const PartialWrites = "(partial writes)"

// inputKeeper reports whether the object under tasks/ at key belongs to a
// task still queued or running, reading each task's record once: by its
// record, or by its message still in the task stream when its record is
// gone (its TTL ran out while no gateway ran to renew it; the gateways
// write it again, Queue.restore). Judged by the record alone, such a
// task's input was removed before its runner took it.
func (r *Records) inputKeeper() func(context.Context, string) (bool, error) {
	known := map[string]bool{}
	var waiting map[string]bool
	return func(ctx context.Context, key string) (bool, error) {
		id, ok := taskOfKey(key)
		if !ok {
			return false, nil
		}
		if keep, seen := known[id]; seen {
			return keep, nil
		}
		keep, err := r.Unfinished(ctx, id)
		if err != nil {
			return false, err
		}
		if !keep {
			if waiting == nil {
				if waiting, err = r.waiting(ctx); err != nil {
					return false, err
				}
			}
			keep = waiting[id]
		}
		known[id] = keep
		return keep, nil
	}
}

// waiting is the set of task ids whose message the task stream holds:
// accepted and not yet finished (a finished task's message is
// acknowledged, and so removed, once its record says so).
func (r *Records) waiting(ctx context.Context) (map[string]bool, error) {
	ids := map[string]bool{}
	stream, err := r.js.Stream(ctx, StreamName)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return ids, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tasks: bind stream %s: %w", StreamName, err)
	}
	err = eachJob(ctx, stream, func(job Job, _ time.Time) error {
		ids[job.ID] = true
		return nil
	})
	return ids, err
}

// taskOfKey is the task id of a key under InputPrefix(id).
func taskOfKey(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "tasks/")
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, "/")
	return id, ok && id != ""
}
