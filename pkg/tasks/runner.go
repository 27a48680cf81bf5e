package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
	"docsuite/pkg/store"
)

// Progress reports pages done out of pages total.
type Progress func(done, total int)

// Exec runs one task and returns its response body.
type Exec func(ctx context.Context, job Job, progress Progress) ([]byte, error)

// Run takes tasks from the queue, highest priority first, with n runners at
// once, until ctx ends, and meanwhile keeps the records of waiting tasks
// from expiring (keepRecords). It returns after running tasks finish.
func (q *Queue) Run(ctx context.Context, n int, exec Exec) error {
	wake := make(chan struct{}, 1)
	sub, err := q.nc.Subscribe(notifySubject, func(*nats.Msg) {
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return fmt.Errorf("tasks: subscribe notify: %w", err)
	}
	defer sub.Unsubscribe() //nolint:errcheck
	abandoned, err := q.watchAbandoned(ctx)
	if err != nil {
		return err
	}
	defer abandoned.Unsubscribe() //nolint:errcheck
	var wg sync.WaitGroup
	wg.Go(func() { q.keepRecords(ctx) })
	for range max(1, n) {
		wg.Go(func() { q.loop(ctx, wake, exec) })
	}
	wg.Wait()
	return nil
}

func (q *Queue) loop(ctx context.Context, wake chan struct{}, exec Exec) {
	for ctx.Err() == nil {
		msg := q.next(ctx)
		if msg == nil {
			select {
			case <-ctx.Done():
				return
			case <-wake:
			case <-time.After(idlePoll):
			}
			continue
		}
		q.process(ctx, msg, exec)
	}
}

// next fetches one message from the highest non-empty priority level. A
// level whose fetch got no answer in time (the client gives up after
// unansweredFetch, reporting no messages) is not known to be empty: rather
// than take a lower level's task before its own, next returns nil and the
// runner asks again.
func (q *Queue) next(ctx context.Context) jetstream.Msg {
	for p := MaxPriority; p >= 1; p-- {
		start := time.Now()
		batch, err := q.cons[p].FetchNoWait(1)
		if err != nil {
			if ctx.Err() == nil {
				q.log.Warn("task fetch failed", "priority", p, "err", err)
			}
			continue
		}
		for m := range batch.Messages() {
			return m
		}
		if time.Since(start) >= unansweredFetch && ctx.Err() == nil {
			q.log.Warn("task fetch unanswered, asking again", "priority", p)
			return nil
		}
	}
	return nil
}

// idlePoll is how often an idle runner looks at the queue on its own. A
// task queued by any gateway wakes the runners at once (notifySubject);
// the poll only catches what no notice announces (a task redelivered
// after a failed try or its runner's end, a notice lost), for which a
// second or two is no delay. At 250 ms an idle gateway's runners sent
// NATS 72 fetches a second (2 runners x 9 levels x 4).
const idlePoll = 2 * time.Second

// unansweredFetch is how long a no-wait fetch runs when the server does not
// answer (the client's own limit is one second).
const unansweredFetch = 900 * time.Millisecond

func (q *Queue) process(ctx context.Context, msg jetstream.Msg, exec Exec) {
	var job Job
	if err := json.Unmarshal(msg.Data(), &job); err != nil {
		q.log.Error("dropping malformed task message", "err", err)
		_ = msg.Term()
		return
	}
	meta, _ := msg.Metadata()
	st, ok, err := q.read(ctx, job.ID)
	if err == nil && !ok {
		queued := time.Now()
		if meta != nil {
			queued = meta.Timestamp
		}
		st, err = q.restore(ctx, job, queued)
	}
	if err != nil {
		_ = msg.NakWithDelay(time.Second)
		return
	}
	if st.Status == Done || st.Status == Failed {
		// Finished by a runner that died before acknowledging.
		_ = msg.Ack()
		return
	}
	// A try counts its own pages from none: those of a try before it (its
	// runner stopped, or it failed and is tried again) are not done by
	// this one, and a polling client was shown them until this try's
	// first report, then fewer.
	st.Status, st.Started, st.Attempts, st.PagesDone = Running, time.Now().UTC(), st.Attempts+1, 0
	_ = q.put(ctx, st)

	var mu sync.Mutex
	ended := false // no progress is recorded once the try has ended
	body, e := q.attempt(ctx, msg, exec, job, func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			st.PagesDone, st.PagesTotal = done, total
			_ = q.put(ctx, st)
		}
	})
	mu.Lock()
	defer mu.Unlock()
	ended = true
	q.settle(ctx, msg, meta, job, &st, body, e)
}

// recordTimeout bounds recording a try's outcome, which is done even when
// the runner is shutting down (a context detached from the runner's).
const recordTimeout = 10 * time.Second

// settle records the outcome of a try of job, then gives up the runner's
// claim on its message: acknowledged once the task is recorded as done
// or failed, handed back (nak) for another try. A try that ended without
// an answer because the runner is shutting down is handed back to be run
// elsewhere; one that answered is recorded as done first, shutting down
// or not: it used to be handed back too, and run again by another gateway.
func (q *Queue) settle(ctx context.Context, msg jetstream.Msg, meta *jetstream.MsgMetadata, job Job, st *State,
	body []byte, e *apierr.Error) {
	rec, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if e != nil && ctx.Err() != nil {
		q.handBack(rec, msg, st, 0)
		return
	}
	// The claim is renewed before the outcome is written (the heartbeat
	// ended with the try), so that no other runner takes the task meanwhile.
	_ = msg.InProgress()
	if e == nil {
		e = q.storeResult(rec, job.ID, body)
	}
	if e != nil {
		if meta != nil && retried(e.Code, int(meta.NumDelivered), q.opts.MaxDeliver) {
			q.log.Warn("task will be retried", "task_id", job.ID, "err", e)
			q.handBack(rec, msg, st, 2*time.Second)
			return
		}
		body := e.Envelope()
		st.Status, st.Error = Failed, &body
		q.log.Warn("task failed", "task_id", job.ID, "err", e)
	} else {
		st.Status, st.ResultKey = Done, ResultKey(job.ID)
	}
	st.Completed = time.Now().UTC()
	if err := q.put(rec, *st); err != nil {
		_ = msg.NakWithDelay(time.Second)
		return
	}
	if err := q.store.DeletePrefix(rec, InputPrefix(job.ID)); err != nil {
		q.log.Warn("input cleanup failed; the janitor will remove it", "task_id", job.ID, "err", err)
	}
	if st.Status == Failed || st.Attempts > 1 {
		q.cleanLate(job.ID)
	}
	_ = msg.Ack()
}

// cleanLate removes task id's input and intermediates once more, LateCleanup
// after it completed. A try cut short (its time up, a document's failure
// ending the others) cancels its stage requests, but a worker that missed
// the cancellation finishes what it took, within its own PIPELINE_TIMEOUT,
// and writes its crops after the cleanup at completion: they stayed until
// the janitor's PIPELINE_TIMEOUT + COMPLETED_TASK_TTL_SECONDS, an hour and
// more of a client's document pieces after its task had completed. A
// synchronous request cut short is cleaned so too (the gateway's
// lateCleanup).
func (q *Queue) cleanLate(id string) {
	store.DeleteLater(q.store, InputPrefix(id), q.opts.LateCleanup, func(err error) {
		q.log.Warn("late cleanup of a task failed; the janitor will remove it", "task_id", id, "err", err)
	})
}

// handBack returns a task whose try ended without an outcome to the queue,
// to be delivered again after delay (none: at once), its progress back at
// no pages done: the pages of the try that ended are to be done again.
func (q *Queue) handBack(ctx context.Context, msg jetstream.Msg, st *State, delay time.Duration) {
	if st.PagesDone != 0 {
		st.PagesDone = 0
		_ = q.put(ctx, *st)
	}
	if err := nak(ctx, q.nc, msg, delay); err != nil {
		q.log.Warn("handing a task back failed; it is delivered again after AckWait",
			"task_id", st.ID, "ack_wait", q.opts.AckWait, "err", err)
	}
}

// nak hands msg back to JetStream to be delivered again after delay, and
// returns once the server has taken it. The nak always carries a delay, at
// least a nanosecond: the server stores a delayed nak with the message's
// delivery, as due again then, and delivers it again within 10 ms (its
// timer), where a plain nak (jetstream.Msg.Nak) queues the message for
// redelivery only in the server's memory. Handed back so by an all-in-one
// that SIGTERM stopped, its embedded server stopping with it, a task came
// back after the restart as the server had stored it, still held by the
// runner that stopped: it ran only once AckWait (30 s) had passed since
// that runner's last heartbeat, after the tasks of lower priority. The nak
// is sent as a request and its reply awaited, where
// jetstream.Msg.NakWithDelay only publishes it: the server processes an ack
// some time after reading it, and one stopping just then may never do so.
func nak(ctx context.Context, nc *nats.Conn, msg jetstream.Msg, delay time.Duration) error {
	body := fmt.Appendf(nil, "-NAK {\"delay\": %d}", max(delay, time.Nanosecond).Nanoseconds())
	if _, err := nc.RequestWithContext(ctx, msg.Reply(), body); err != nil {
		return fmt.Errorf("tasks: nak %s: %w", msg.Reply(), err)
	}
	return nil
}

// attempt runs one try of a task within the pipeline timeout, telling
// JetStream meanwhile that it is being worked on. A failed try answers the
// API error the task is recorded with (taskError).
func (q *Queue) attempt(ctx context.Context, msg jetstream.Msg, exec Exec, job Job, progress Progress) ([]byte, *apierr.Error) {
	runCtx, cancel := context.WithTimeout(ctx, q.opts.Timeout)
	defer cancel()
	stopBeat := q.heartbeat(runCtx, msg)
	body, err := q.safeExec(runCtx, exec, job, progress)
	stopBeat()
	if err != nil {
		return nil, taskError(err, errors.Is(runCtx.Err(), context.DeadlineExceeded), q.opts.Timeout)
	}
	return body, nil
}

// safeExec runs exec and turns a panic into an internal error, as the
// gateway does for a synchronous request: a task that panics fails alone
// instead of taking the gateway, its running tasks and its synchronous
// requests down, and then, redelivered, every other gateway in turn.
func (q *Queue) safeExec(ctx context.Context, exec Exec, job Job, progress Progress) (body []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			q.log.Error("task panicked", "task_id", job.ID, "panic", p, "stack", string(debug.Stack()))
			err = apierr.Panic(p)
		}
	}()
	return exec(ctx, job, progress)
}

// taskError is the API error a failed try of a task is recorded with: a
// try that ran past its timeout is pipeline_timeout, a catalogue error
// stays what it is, and any other error is task_failed (errno 26), the
// catalogue's error of a task that failed without a more specific one;
// limit is the time a try had.
func taskError(err error, timedOut bool, limit time.Duration) *apierr.Error {
	if timedOut {
		return apierr.Timeout(err, limit)
	}
	var e *apierr.Error
	if errors.As(err, &e) {
		return e
	}
	return apierr.Wrap(apierr.TaskFailed, err, "")
}

// storeResult stores a finished task's body. An object store that refuses
// it is dependency_down: the task is tried again while tries remain
// (retried) and then fails with that 503, rather than stay running, its
// state never finished, until its record expires.
func (q *Queue) storeResult(ctx context.Context, id string, body []byte) *apierr.Error {
	if err := q.store.Put(ctx, ResultKey(id), body); err != nil {
		q.log.Error("storing result failed", "task_id", id, "err", err)
		return apierr.Wrap(apierr.DependencyDown, fmt.Errorf("tasks: store result of %s: %w", id, err),
			"Object store unavailable: the task's result could not be stored")
	}
	return nil
}

// heartbeat tells JetStream the task is still being worked on, so only a
// dead runner's tasks are redelivered.
func (q *Queue) heartbeat(ctx context.Context, msg jetstream.Msg) func() {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(q.opts.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	return func() { close(done) }
}

// retried reports whether a task that failed with code on its delivered-th
// delivery is tried again: a transient failure while deliveries remain; a
// timeout once. A stage request a worker took and never answered (the
// worker killed or restarted under it) runs into the task's timeout, and
// the task's second try reaches a live worker; a task too slow for
// PIPELINE_TIMEOUT fails on its second timeout.
func retried(code apierr.Code, delivered, maxDeliver int) bool {
	if code == apierr.PipelineTimeout {
		return delivered < min(2, maxDeliver)
	}
	return transient(code) && delivered < maxDeliver
}

func transient(c apierr.Code) bool {
	return c == apierr.DependencyDown || c == apierr.Overloaded
}
