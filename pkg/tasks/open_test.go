package tasks

import (
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/bus"
)

// TestOpensWhatEarlierReleasesMade: a gateway opens the task stream, its
// consumers and the state bucket as a gateway of an earlier release made
// them (at an upgrade, or beside one during a rolling upgrade), and takes
// them over with its own settings. A change that JetStream refuses on an
// existing stream (its retention, storage or subjects) would stop every
// gateway of the new release at start; this test fails first.
func TestOpensWhatEarlierReleasesMade(t *testing.T) {
	first := jetstream.StreamConfig{Name: StreamName, Subjects: []string{subjectPrefix + "*"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: 1}
	for _, tc := range []struct {
		name    string
		ackWait time.Duration // of the earlier consumers
		ttl     time.Duration // of the earlier bucket
	}{
		{"the release of 2026-11-22", 30 * time.Second, time.Hour + 2*time.Minute + 90*time.Second},
		{"another AckWait and bucket TTL", 10 * time.Second, 5 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			nc, err := bus.Connect(e.url, "earlier", quiet)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(nc.Close)
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			ctx := t.Context()
			s, err := js.CreateStream(ctx, first)
			if err != nil {
				t.Fatal(err)
			}
			for p := 1; p <= MaxPriority; p++ {
				if _, err := s.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: fmt.Sprintf("runner-p%d", p),
					FilterSubject: fmt.Sprintf("%s%d", subjectPrefix, p), AckPolicy: jetstream.AckExplicitPolicy,
					AckWait: tc.ackWait, MaxDeliver: 4}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: BucketName, TTL: tc.ttl,
				Storage: jetstream.FileStorage}); err != nil {
				t.Fatal(err)
			}
			q, _ := e.queue(t)
			info, err := q.cons[MaxPriority].Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if info.Config.AckWait != e.opts.AckWait {
				t.Errorf("consumer AckWait %v, want this gateway's %v", info.Config.AckWait, e.opts.AckWait)
			}
			st, err := q.kv.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			opts := e.opts
			opts.defaults()
			if st.TTL() != opts.recordTTL() {
				t.Errorf("bucket TTL %v, want this gateway's %v", st.TTL(), opts.recordTTL())
			}
		})
	}
}
