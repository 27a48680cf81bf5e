package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/apierr"
)

// maxDeliveriesSubject is where JetStream announces a message of the task
// stream that it will deliver no more: every delivery it was allowed
// ended without an acknowledgement (its runner died, or was shut down,
// on every try).
const maxDeliveriesSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + StreamName + ".*"

// abandonedGroup is the queue group in which one gateway handles each
// such announcement.
const abandonedGroup = "docsuite-tasks-abandoned"

// maxDeliveries is the part of JetStream's announcement the queue reads.
type maxDeliveries struct {
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries int    `json:"deliveries"`
}

// watchAbandoned fails the tasks JetStream gives up on. Without it such a
// task stayed running: /result answered 202 until its record expired and
// then 404, and its message stayed in the stream for good.
func (q *Queue) watchAbandoned(ctx context.Context) (*nats.Subscription, error) {
	sub, err := q.nc.QueueSubscribe(maxDeliveriesSubject, abandonedGroup, func(m *nats.Msg) {
		var adv maxDeliveries
		if err := json.Unmarshal(m.Data, &adv); err != nil {
			q.log.Warn("malformed max-deliveries advisory", "err", err)
			return
		}
		if err := q.abandon(ctx, adv); err != nil {
			q.log.Warn("abandoned task not recorded as failed", "seq", adv.StreamSeq, "err", err)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("tasks: subscribe max-deliveries advisories: %w", err)
	}
	return sub, nil
}

// abandon records the task of an abandoned stream message as failed
// (task_failed), removes its input and the message.
func (q *Queue) abandon(ctx context.Context, adv maxDeliveries) error {
	raw, err := q.stream.GetMsg(ctx, adv.StreamSeq)
	if err != nil {
		return fmt.Errorf("tasks: read abandoned message %d: %w", adv.StreamSeq, err)
	}
	var job Job
	if err := json.Unmarshal(raw.Data, &job); err != nil {
		return fmt.Errorf("tasks: decode abandoned message %d: %w", adv.StreamSeq, err)
	}
	st, ok, err := q.Get(ctx, job.ID)
	if err != nil {
		return err
	}
	if ok && st.Status != Done && st.Status != Failed {
		e := apierr.Wrap(apierr.TaskFailed, fmt.Errorf("tasks: %d tries of task %s ended without an answer "+
			"(the gateway running it stopped each time)", adv.Deliveries, job.ID), "")
		body := e.Envelope()
		st.Status, st.Error, st.Completed = Failed, &body, time.Now().UTC()
		if err := q.put(ctx, st); err != nil {
			return err
		}
		q.log.Warn("task failed: every try was interrupted", "task_id", job.ID, "tries", adv.Deliveries)
	}
	if err := q.store.DeletePrefix(ctx, InputPrefix(job.ID)); err != nil {
		q.log.Warn("input cleanup failed; the janitor will remove it", "task_id", job.ID, "err", err)
	}
	if err := q.stream.DeleteMsg(ctx, adv.StreamSeq); err != nil {
		return fmt.Errorf("tasks: delete abandoned message %d: %w", adv.StreamSeq, err)
	}
	return nil
}
