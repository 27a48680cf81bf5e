package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
	"docsuite/pkg/store"
)

// Names of the JetStream objects.
const (
	StreamName    = "DOCSUITE_TASKS"
	BucketName    = "docsuite_tasks"
	subjectPrefix = "docsuite.tasks.p."
	notifySubject = "docsuite.tasks.notify"
	// MaxPriority is the highest distinct priority level; larger values
	// of the priority parameter run at this level.
	MaxPriority = 9
)

// Options tunes the queue.
type Options struct {
	// TTL is how long a finished result stays readable.
	TTL time.Duration
	// Timeout bounds one run of a task (PIPELINE_TIMEOUT).
	Timeout time.Duration
	// AckWait is how soon a task held by a dead runner is redelivered.
	AckWait time.Duration
	// MaxDeliver is how often a task is tried before it fails.
	MaxDeliver int
	// Replicas of the stream and bucket (1 for a single server).
	Replicas int
	// LateCleanup is how long after a task that failed, or was tried
	// more than once, its input and intermediates are removed once more
	// (default: Timeout + 10 s; see Queue.cleanLate).
	LateCleanup time.Duration
}

func (o *Options) defaults() {
	if o.AckWait <= 0 {
		o.AckWait = 30 * time.Second
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = 3
	}
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	if o.LateCleanup <= 0 {
		o.LateCleanup = o.Timeout + 10*time.Second
	}
}

// Queue enqueues tasks and reads their state.
type Queue struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	kv     jetstream.KeyValue
	stream jetstream.Stream
	store  store.Store
	opts   Options
	cons   [MaxPriority + 1]jetstream.Consumer
	log    *slog.Logger
}

// Open creates (or binds to) the stream, consumers and KV bucket.
func Open(ctx context.Context, nc *nats.Conn, st store.Store, opts Options, log *slog.Logger) (*Queue, error) {
	opts.defaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("tasks: jetstream: %w", err)
	}
	q := &Queue{nc: nc, js: js, store: st, opts: opts, log: log}
	stream, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:      StreamName,
		Subjects:  []string{subjectPrefix + "*"},
		Retention: jetstream.WorkQueuePolicy,
		Storage:   jetstream.FileStorage,
		Replicas:  opts.Replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("tasks: stream %s: %w", StreamName, err)
	}
	q.stream = stream
	for p := 1; p <= MaxPriority; p++ {
		c, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
			Durable:       fmt.Sprintf("runner-p%d", p),
			FilterSubject: fmt.Sprintf("%s%d", subjectPrefix, p),
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       opts.AckWait,
			MaxDeliver:    opts.MaxDeliver + 1,
			Replicas:      opts.Replicas,
		})
		if err != nil {
			return nil, fmt.Errorf("tasks: consumer p%d: %w", p, err)
		}
		q.cons[p] = c
	}
	// A record lives recordTTL after its last write; the runners renew
	// those of waiting tasks (keepRecords), and Expired enforces the
	// exact result TTL on reads.
	q.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:   BucketName,
		TTL:      opts.recordTTL(),
		Storage:  jetstream.FileStorage,
		Replicas: opts.Replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("tasks: kv %s: %w", BucketName, err)
	}
	return q, nil
}

// Depth is how many async tasks the queue holds, waiting or running (the
// work-queue stream keeps a task until it is settled), for every gateway
// together.
func (q *Queue) Depth(ctx context.Context) (uint64, error) {
	info, err := q.stream.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("tasks: stream info: %w", err)
	}
	return info.State.Msgs, nil
}

// Level maps the priority parameter onto a queue level 1..MaxPriority.
func Level(priority int) int {
	return max(1, min(priority, MaxPriority))
}

// Enqueue records the task as queued and publishes its job. The input must
// already be in the store under job.InputKey.
func (q *Queue) Enqueue(ctx context.Context, job Job, owner string) error {
	job.Owner, job.Format = owner, jobFormat
	st := State{ID: job.ID, Method: job.Method, Status: Queued, Owner: owner, Priority: job.Priority, Created: time.Now().UTC()}
	if err := q.put(ctx, st); err != nil {
		return err
	}
	data, err := json.Marshal(job)
	if err != nil {
		return fmt.Errorf("tasks: encode job: %w", err)
	}
	subj := fmt.Sprintf("%s%d", subjectPrefix, Level(job.Priority))
	if _, err := q.js.Publish(ctx, subj, data, jetstream.WithMsgID(job.ID)); err != nil {
		return apierr.Wrap(apierr.DependencyDown, err, "Task queue unavailable")
	}
	_ = q.nc.Publish(notifySubject, nil)
	return nil
}

// RecordAnswered records a request answered synchronously, so that
// /result can tell its task_id from an unknown one until the result TTL
// has passed.
func (q *Queue) RecordAnswered(ctx context.Context, id, method, owner string) error {
	now := time.Now().UTC()
	return q.put(ctx, State{ID: id, Method: method, Status: Answered, Owner: owner, Created: now, Completed: now})
}

// Get reads a task's state; ok is false for an unknown or expired task.
func (q *Queue) Get(ctx context.Context, id string) (State, bool, error) {
	st, ok, err := q.read(ctx, id)
	if err != nil || !ok {
		return State{}, false, err
	}
	if st.Expired(time.Now(), q.opts.TTL) {
		return State{}, false, nil
	}
	return st, true, nil
}

// read reads a task's record as it is, expired result or not; ok is false
// when the bucket holds none.
func (q *Queue) read(ctx context.Context, id string) (State, bool, error) {
	e, err := q.kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrInvalidKey) {
		return State{}, false, nil
	}
	if err != nil {
		return State{}, false, apierr.Wrap(apierr.DependencyDown, err, "Task state unavailable")
	}
	var st State
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return State{}, false, fmt.Errorf("tasks: decode state %s: %w", id, err)
	}
	return st, true, nil
}

// restore writes again, as queued, the record of a task whose message the
// stream still holds but whose record the bucket lost: its TTL ran out
// while no gateway ran to renew it (keepRecords), such as an all-in-one
// stopped for longer than the record TTL, or the bucket's TTL was lowered
// (COMPLETED_TASK_TTL_SECONDS) at a restart. The message is what says the
// task was accepted and not finished: a finished task's message is
// acknowledged only after its record says so. Dropped instead, such a
// task was lost, and /result answered 404 for a task_id it had accepted.
// A record written meanwhile by someone else is kept and returned.
//
// A message of an earlier release that names no owner (Job.ownerKnown)
// may be that of a hosted task, bound to the token that created it:
// restored without its owner, its result was answered to anyone who had
// its id (it is in logs and access logs), without the token or with
// another. Such a task is recorded as failed instead (refuseOwnerless).
func (q *Queue) restore(ctx context.Context, job Job, queued time.Time) (State, error) {
	st := State{ID: job.ID, Method: job.Method, Status: Queued, Owner: job.Owner, Priority: job.Priority,
		Created: queued.UTC()}
	if !job.ownerKnown() {
		st = refuseOwnerless(st)
	}
	b, err := json.Marshal(st)
	if err != nil {
		return State{}, fmt.Errorf("tasks: encode state: %w", err)
	}
	if _, err := q.kv.Create(ctx, job.ID, b); err != nil {
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return State{}, apierr.Wrap(apierr.DependencyDown, err, "Task state unavailable")
		}
		cur, ok, err := q.read(ctx, job.ID)
		if err != nil {
			return State{}, err
		}
		if ok {
			return cur, nil
		}
		return State{}, fmt.Errorf("tasks: record of %s neither created nor readable", job.ID)
	}
	if st.Status == Failed {
		q.log.Warn("record of a waiting task was lost (its TTL ran out while no gateway renewed it) and its message, "+
			"of an earlier release, does not say which token created it: recorded as failed, not run", "task_id", job.ID)
		if err := q.store.DeletePrefix(ctx, InputPrefix(job.ID)); err != nil {
			q.log.Warn("input cleanup failed; the janitor will remove it", "task_id", job.ID, "err", err)
		}
		return st, nil
	}
	q.log.Warn("record of a waiting task was lost (its TTL ran out while no gateway renewed it); written again as queued",
		"task_id", job.ID)
	return st, nil
}

// refuseOwnerless is st, a task restored from a message that does not say
// who owns it, as failed (task_failed), with a message saying why and what
// to do.
func refuseOwnerless(st State) State {
	body := apierr.New(apierr.TaskFailed, "Task was not run: its record expired while no gateway ran, and its "+
		"queue message, written by an earlier release, does not say which token created it, so its result could "+
		"not be kept from other clients; send the file again").Envelope()
	st.Status, st.Error, st.Completed = Failed, &body, time.Now().UTC()
	return st
}

// Result reads a finished task's stored body. A body the store no longer
// holds is task_not_found; a store that cannot be read is dependency_down
// (a 503: asking again may succeed), not an internal error.
func (q *Queue) Result(ctx context.Context, st State) ([]byte, error) {
	b, err := q.store.Get(ctx, st.ResultKey)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, apierr.Wrap(apierr.TaskNotFound, err, "")
	case err != nil:
		return nil, apierr.Wrap(apierr.DependencyDown, fmt.Errorf("tasks: read result of %s: %w", st.ID, err),
			"Object store unavailable")
	}
	return b, nil
}

func (q *Queue) put(ctx context.Context, st State) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("tasks: encode state: %w", err)
	}
	if _, err := q.kv.Put(ctx, st.ID, b); err != nil {
		return apierr.Wrap(apierr.DependencyDown, err, "Task state unavailable")
	}
	return nil
}

// Ping checks the queue's bucket answers.
func (q *Queue) Ping(ctx context.Context) error {
	if _, err := q.kv.Status(ctx); err != nil {
		return fmt.Errorf("tasks: kv status: %w", err)
	}
	return nil
}
