package licensed

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The usage counter is a JetStream stream that keeps only its last
// message: every request served publishes one empty message on
// UsageSubject, and the stream's last sequence number is the count of
// requests since the stream was created. Publishing costs the gateway one
// buffered write (no round trip), replicas need no coordination, and the
// count survives restarts of every role.
const (
	UsageStream  = "DOCSUITE_USAGE"
	UsageSubject = "docsuite.usage.requests"
)

// CountRequest records one request served for the license report. It is
// the gateway's hook: call it once per synchronous request answered and
// once per async task queued.
// It never blocks on the server; an error means the NATS connection is
// closed. Requests published before the license daemon first created the
// stream are not counted.
func CountRequest(nc *nats.Conn) error {
	if err := nc.Publish(UsageSubject, nil); err != nil {
		return fmt.Errorf("licensed: count request: %w", err)
	}
	return nil
}

// OpenUsage creates (or binds) the usage stream.
func OpenUsage(ctx context.Context, js jetstream.JetStream) (jetstream.Stream, error) {
	s, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        UsageStream,
		Description: "docsuite license usage counter: the last sequence is the count of accepted requests",
		Subjects:    []string{UsageSubject},
		Retention:   jetstream.LimitsPolicy,
		MaxMsgs:     1,
		Discard:     jetstream.DiscardOld,
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("licensed: usage stream: %w", err)
	}
	return s, nil
}

// ReadUsage returns the counters of the usage stream.
func ReadUsage(ctx context.Context, s jetstream.Stream) (Usage, error) {
	info, err := s.Info(ctx)
	if err != nil {
		return Usage{}, fmt.Errorf("licensed: usage stream info: %w", err)
	}
	if info == nil {
		return Usage{}, errors.New("licensed: usage stream info is empty")
	}
	return Usage{RequestsTotal: int64(info.State.LastSeq), Since: info.Created.UTC()}, nil
}

// ReadTotal returns the usage counter's requests_total in one request to
// the server (the gateway's read on each request of a limited license).
func ReadTotal(ctx context.Context, js jetstream.JetStream) (int64, error) {
	s, err := js.Stream(ctx, UsageStream)
	if err != nil {
		return 0, fmt.Errorf("licensed: usage stream: %w", err)
	}
	return int64(s.CachedInfo().State.LastSeq), nil
}
