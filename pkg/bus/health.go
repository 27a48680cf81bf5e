package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/apierr"
	"docsuite/pkg/version"
)

// HealthSubject is where a stage's replicas answer readiness probes.
func HealthSubject(stage string) string { return Subject(stage) + ".health" }

// Readiness is a stage's probe answer.
type Readiness struct {
	Ready  bool   `json:"ready"`
	Reason string `json:"reason,omitempty"`
	// Build is the answering replica's version.Build (empty from a
	// binary built without one, and from releases before it was sent).
	Build string `json:"build,omitempty"`
}

// ServeHealth answers readiness probes of a stage with probe's verdict and
// this binary's build.
func ServeHealth(nc *nats.Conn, stage string, probe func() Readiness) (*nats.Subscription, error) {
	sub, err := nc.QueueSubscribe(HealthSubject(stage), stage+".health", func(m *nats.Msg) {
		r := probe()
		r.Build = version.Build
		b, _ := json.Marshal(r)
		_ = m.Respond(b)
	})
	if err != nil {
		return nil, fmt.Errorf("bus: subscribe %s health: %w", stage, err)
	}
	return sub, nil
}

// Health asks one replica of a stage whether it is ready, and returns the
// build it says it runs (empty when it does not say).
func Health(ctx context.Context, nc *nats.Conn, stage string) (build string, err error) {
	msg, err := nc.RequestWithContext(ctx, HealthSubject(stage), nil)
	if errors.Is(err, nats.ErrNoResponders) {
		return "", apierr.New(apierr.DependencyDown, "no "+stage+" worker is running")
	}
	if err != nil {
		return "", apierr.Wrap(apierr.DependencyDown, err, stage+" worker not answering")
	}
	var r Readiness
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return "", fmt.Errorf("bus: %s health: %w", stage, err)
	}
	if !r.Ready {
		return r.Build, apierr.New(apierr.ModelNotLoaded, stage+": "+r.Reason)
	}
	return r.Build, nil
}
