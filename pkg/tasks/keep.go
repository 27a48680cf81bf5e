package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// recordTTL is the bucket's TTL: how long a record lives after its last
// write. A finished record outlives the result TTL by the pipeline
// timeout and the redeliveries (Expired enforces the exact result TTL on
// reads); a queued or running record is kept alive by keepRecords for as
// long as the task waits.
func (o Options) recordTTL() time.Duration {
	return o.TTL + o.Timeout + o.AckWait*time.Duration(o.MaxDeliver)
}

// keepEvery is how often the records of waiting tasks are renewed, and
// how old a record must be to be renewed: a quarter of the record TTL, so
// that a record is at most half the TTL old when renewed, a renewal pass
// that fails once included.
func (o Options) keepEvery() time.Duration {
	return max(o.recordTTL()/4, 10*time.Millisecond)
}

// keepRecords renews, every keepEvery until ctx ends, the records of the
// tasks the stream still holds (queued, or running and not yet
// acknowledged). The bucket's TTL counts from a record's last write:
// without the renewal a task that waited longer than that in the queue (a
// long backlog, or a low priority starved by higher ones) lost its record,
// /result answered 404 task_not_found while it was queued, and its runner
// dropped it when its turn came.
func (q *Queue) keepRecords(ctx context.Context) {
	t := time.NewTicker(q.opts.keepEvery())
	defer t.Stop()
	for {
		if err := q.keepPass(ctx); err != nil && ctx.Err() == nil {
			q.log.Warn("renewing the records of waiting tasks failed; next pass later", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// keepPass renews the record of every task message in the stream, oldest
// first (eachJob).
func (q *Queue) keepPass(ctx context.Context) error {
	return eachJob(ctx, q.stream, func(job Job, queued time.Time) error {
		return q.keep(ctx, job, queued)
	})
}

// eachJob calls fn with every task message's job in the stream and the
// time it was queued, oldest first, each message read with the server's
// next-by-subject lookup so that only the messages held are read, however
// far apart. A message that is not a job is skipped (the runner that
// takes it drops it).
func eachJob(ctx context.Context, stream jetstream.Stream, fn func(Job, time.Time) error) error {
	info, err := stream.Info(ctx)
	if err != nil {
		return fmt.Errorf("tasks: stream info: %w", err)
	}
	if info.State.Msgs == 0 {
		return nil
	}
	for seq := info.State.FirstSeq; ctx.Err() == nil; {
		raw, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subjectPrefix+"*"))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("tasks: read task message from %d: %w", seq, err)
		}
		seq = raw.Sequence + 1
		var job Job
		if err := json.Unmarshal(raw.Data, &job); err != nil {
			continue
		}
		if err := fn(job, raw.Time); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// keep renews the record of the task of job when the task is queued or
// running and its record was last written keepEvery ago or more. The
// record is written back unchanged, on condition that nobody wrote it
// meanwhile: a runner's newer state is never overwritten with an older
// one. A record the bucket lost while no gateway ran is written again
// (restore), so that /result answers 202 again as soon as a gateway runs,
// not only once a runner takes the task.
func (q *Queue) keep(ctx context.Context, job Job, queued time.Time) error {
	id := job.ID
	e, err := q.kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrInvalidKey) {
		return nil
	}
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		_, err := q.restore(ctx, job, queued)
		return err
	}
	if err != nil {
		return fmt.Errorf("tasks: read record %s: %w", id, err)
	}
	if time.Since(e.Created()) < q.opts.keepEvery() {
		return nil
	}
	var st State
	if err := json.Unmarshal(e.Value(), &st); err != nil {
		return fmt.Errorf("tasks: decode record %s: %w", id, err)
	}
	if !st.Unfinished() {
		return nil
	}
	if _, err := q.kv.Update(ctx, id, e.Value(), e.Revision()); err != nil && !writtenMeanwhile(err) {
		return fmt.Errorf("tasks: renew record %s: %w", id, err)
	}
	return nil
}

// writtenMeanwhile reports whether a conditional write failed because the
// record was written since it was read.
func writtenMeanwhile(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}
