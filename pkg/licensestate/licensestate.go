// Package licensestate is the license verdict the license daemon publishes
// on NATS KV and the gateway reads before serving a request.
package licensestate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
)

// Bucket and key of the verdict in NATS KV.
const (
	Bucket = "docsuite_license"
	Key    = "verdict"
)

// Verdict is what the license server last said.
type Verdict struct {
	Valid        bool      `json:"valid"`
	Expires      time.Time `json:"expires,omitzero"`
	RequestsLeft *int64    `json:"requests_left,omitempty"`
	Reason       string    `json:"reason,omitempty"`
	// CheckedAt is when the license server last answered.
	CheckedAt time.Time `json:"checked_at"`
	// LastAttempt is when the daemon last tried to reach it.
	LastAttempt time.Time `json:"last_attempt"`
	// Reachable is false when the last attempt failed.
	Reachable bool `json:"reachable"`
	// NextCheck is when the daemon, having reached the server, means to
	// ask it again (LICENSE_CHECK_INTERVAL later); zero from a daemon of an
	// earlier release.
	NextCheck time.Time `json:"next_check,omitzero"`
	// UsageCounted is the value of the usage counter (the requests the
	// gateways served, stream DOCSUITE_USAGE) that RequestsLeft already
	// accounts for: the requests counted since lower it further. Absent
	// from a daemon of an earlier release.
	UsageCounted *int64 `json:"usage_counted,omitempty"`
}

// Counted returns v with RequestsLeft lowered by the requests counted
// since UsageCounted, total being the usage counter now. A counter lower
// than UsageCounted was reset (its stream made anew), and all of it
// counts. A verdict without a limit or without UsageCounted is returned
// as it is.
func (v Verdict) Counted(total int64) Verdict {
	if v.RequestsLeft == nil || v.UsageCounted == nil {
		return v
	}
	used := total - *v.UsageCounted
	if used < 0 {
		used = total
	}
	left := max(0, *v.RequestsLeft-used)
	v.RequestsLeft, v.UsageCounted = &left, &total
	return v
}

// ScheduleSlack is how long past NextCheck a verdict still counts as on
// schedule: the daemon's next check, its retries with back-off and the
// publication take that long at most before a failure is published.
const ScheduleSlack = 10 * time.Minute

// Check turns a verdict into nil (serve) or the 403 to answer. The grace
// period runs only while the server is not being reached: a verdict from
// a server that answered the last check, with the next check not yet
// overdue, holds however long the check interval is. Otherwise (the server
// unreachable, or the daemon silent past its schedule) a verdict whose
// last answer is older than grace counts as no license.
func (v Verdict) Check(now time.Time, grace time.Duration) error {
	switch {
	case v.CheckedAt.IsZero():
		return apierr.New(apierr.LicenseInvalid, "License has not been verified yet")
	case !v.OnSchedule(now) && now.Sub(v.CheckedAt) > grace:
		return apierr.New(apierr.LicenseInvalid, fmt.Sprintf("License server unreachable since %s (grace period over)", v.CheckedAt.Format(time.RFC3339)))
	case !v.Expires.IsZero() && now.After(v.Expires):
		return apierr.New(apierr.LicenseExpired, "")
	case v.RequestsLeft != nil && *v.RequestsLeft <= 0:
		return apierr.New(apierr.LicenseExhausted, "")
	case !v.Valid:
		msg := "License is not valid"
		if v.Reason != "" {
			msg += ": " + v.Reason
		}
		return apierr.New(apierr.LicenseInvalid, msg)
	}
	return nil
}

// OnSchedule reports whether the server answered the daemon's last check
// and the next one is not overdue: such a verdict holds without the grace
// period; any other is judged by it.
func (v Verdict) OnSchedule(now time.Time) bool {
	return v.Reachable && !v.NextCheck.IsZero() && now.Before(v.NextCheck.Add(ScheduleSlack))
}

// Open creates or binds the KV bucket.
func Open(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: Bucket, History: 1})
	if err != nil {
		return nil, fmt.Errorf("licensestate: kv %s: %w", Bucket, err)
	}
	return kv, nil
}

// Bind binds the KV bucket the license daemon writes, for a reader (the
// gateway): it never changes the bucket's configuration. A missing bucket
// (a first start, the gateway before the license daemon) is created where
// the reader may create it; where it may not (docker compose's NATS lets
// only the license daemon's user create, change or write the bucket,
// deploy/nats/nats.conf) Bind returns nil and no error: the reader binds
// again later (it has no verdict until then).
func Bind(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, Bucket)
	if err == nil {
		return kv, nil
	}
	if !errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("licensestate: kv %s: %w", Bucket, err)
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if kv, err := Open(cctx, js); err == nil {
		return kv, nil
	}
	return nil, nil
}

// Read returns the current verdict; a missing one is the zero verdict.
func Read(ctx context.Context, kv jetstream.KeyValue) (Verdict, error) {
	e, err := kv.Get(ctx, Key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Verdict{}, nil
	}
	if err != nil {
		return Verdict{}, fmt.Errorf("licensestate: read: %w", err)
	}
	var v Verdict
	if err := json.Unmarshal(e.Value(), &v); err != nil {
		return Verdict{}, fmt.Errorf("licensestate: decode: %w", err)
	}
	return v, nil
}

// Write publishes a verdict.
func Write(ctx context.Context, kv jetstream.KeyValue, v Verdict) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("licensestate: encode: %w", err)
	}
	if _, err := kv.Put(ctx, Key, b); err != nil {
		return fmt.Errorf("licensestate: write: %w", err)
	}
	return nil
}
