package licensed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/licensestate"
)

// CheckSubject is a NATS subject that makes the daemon check at once (for
// example after the vendor renewed the license); a request on it is
// answered with the resulting verdict as JSON.
const CheckSubject = "docsuite.license.check"

// Options configure a Daemon.
type Options struct {
	// URL is LICENSE_URL (https).
	URL string
	// Token is LICENSE_TOKEN.
	Token string
	// InstanceID names the installation in the report.
	InstanceID string
	// Version is the suite's release.
	Version string
	// Client reaches the license server (see NewClient).
	Client *http.Client
	// Interval is LICENSE_CHECK_INTERVAL: the time between checks.
	Interval time.Duration
	// Attempts is how many times one check tries the server (default 4).
	Attempts int
	// Backoff is the pause after the first failed attempt (default 2 s);
	// it doubles with each further attempt up to MaxBackoff (default 1 min).
	Backoff, MaxBackoff time.Duration
	// RetryInterval is how soon a check that got no answer is repeated
	// (default 1 min, doubling with each further failed check, never
	// beyond Interval).
	RetryInterval time.Duration
	// UsageRefresh is how often the published requests_left is lowered
	// by the requests counted since the last answer (default 15 s).
	UsageRefresh time.Duration
	// Log receives the daemon's records.
	Log *slog.Logger
	// Metrics, when set, receives the daemon's gauges and counters.
	Metrics *Metrics
}

func (o *Options) defaults() {
	if o.Attempts <= 0 {
		o.Attempts = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = 2 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Minute
	}
	if o.RetryInterval <= 0 {
		o.RetryInterval = time.Minute
	}
	if o.UsageRefresh <= 0 {
		o.UsageRefresh = 15 * time.Second
	}
	if o.Interval <= 0 {
		o.Interval = time.Hour
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
}

// Daemon checks the license and publishes the verdict. Its methods are
// meant to be called from one goroutine (Run's).
type Daemon struct {
	opts  Options
	nc    *nats.Conn
	kv    jetstream.KeyValue
	usage jetstream.Stream

	// last is the verdict last published (or found in KV at start).
	last licensestate.Verdict
	// leftAtAnswer and usageAtAnswer are requests_left from the server's
	// last answer and the usage counter at that moment.
	leftAtAnswer  *int64
	usageAtAnswer int64
}

// New binds the verdict bucket and the usage stream (creating them when
// missing) and loads the verdict already published, so a restarted daemon
// that cannot reach the license server keeps the previous answer.
func New(ctx context.Context, nc *nats.Conn, opts Options) (*Daemon, error) {
	opts.defaults()
	if opts.Client == nil {
		return nil, errors.New("licensed: Options.Client is required")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("licensed: jetstream: %w", err)
	}
	kv, err := licensestate.Open(ctx, js)
	if err != nil {
		return nil, err
	}
	us, err := OpenUsage(ctx, js)
	if err != nil {
		return nil, err
	}
	d := &Daemon{opts: opts, nc: nc, kv: kv, usage: us}
	if d.last, err = licensestate.Read(ctx, kv); err != nil {
		opts.Log.Warn("previous license verdict unreadable; starting without one", "err", err)
		d.last = licensestate.Verdict{}
	}
	if d.last.RequestsLeft != nil {
		left := *d.last.RequestsLeft
		d.leftAtAnswer = &left
		if u, err := ReadUsage(ctx, us); err == nil {
			d.usageAtAnswer = u.RequestsTotal
		}
	}
	return d, nil
}

// Run checks at once, then every Interval (sooner after a check that got
// no answer), lowers requests_left by the counted usage every
// UsageRefresh, and checks on demand on CheckSubject, until ctx ends.
func (d *Daemon) Run(ctx context.Context) error {
	demand := make(chan *nats.Msg, 1)
	sub, err := d.nc.Subscribe(CheckSubject, func(m *nats.Msg) {
		select {
		case demand <- m:
		default: // a check is already pending
			_ = m.Respond([]byte(`{"pending":true}`))
		}
	})
	if err != nil {
		return fmt.Errorf("licensed: subscribe %s: %w", CheckSubject, err)
	}
	defer sub.Unsubscribe() //nolint:errcheck
	refresh := time.NewTicker(d.opts.UsageRefresh)
	defer refresh.Stop()
	failures := 0
	var reply *nats.Msg
	for {
		v, err := d.Check(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if reply != nil {
			b, _ := json.Marshal(v)
			_ = reply.Respond(b)
			reply = nil
		}
		wait := d.opts.Interval
		if err != nil {
			failures++
			wait = min(wait, d.opts.RetryInterval<<min(failures-1, 16))
		} else {
			failures = 0
		}
		timer := time.NewTimer(wait)
	waiting:
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				return nil
			case <-refresh.C:
				if err := d.Refresh(ctx); err != nil {
					d.opts.Log.Warn("license usage refresh failed", "err", err)
				}
			case reply = <-demand:
				timer.Stop()
				break waiting
			case <-timer.C:
				break waiting
			}
		}
	}
}

// Check asks the license server once (with up to Attempts tries) and
// publishes the verdict. Without an answer the last verdict is published
// again with Reachable false, so its CheckedAt ages into the gateway's
// grace period; the returned error says why.
func (d *Daemon) Check(ctx context.Context) (licensestate.Verdict, error) {
	u, uerr := ReadUsage(ctx, d.usage)
	if uerr != nil {
		d.opts.Log.Warn("license usage counter unreadable; reporting the last known", "err", uerr)
		u = Usage{RequestsTotal: d.usageAtAnswer}
	}
	req := Request{Token: d.opts.Token, InstanceID: d.opts.InstanceID, Version: d.opts.Version, Usage: u}
	var resp Response
	var err error
	for attempt := 1; ; attempt++ {
		req.SentAt = time.Now().UTC()
		resp, err = Post(ctx, d.opts.Client, d.opts.URL, req)
		if err == nil || attempt >= d.opts.Attempts || ctx.Err() != nil {
			break
		}
		delay := d.backoff(attempt)
		d.opts.Log.Info("license server did not answer; retrying", "attempt", attempt, "retry_in", delay.String(), "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
	}
	now := time.Now().UTC()
	var v licensestate.Verdict
	if err != nil {
		v = d.last
		v.Reachable, v.LastAttempt = false, now
		d.opts.Log.Warn("license server unreachable; keeping the last verdict",
			"url", d.opts.URL, "last_answer", fmtTime(v.CheckedAt), "valid", v.Valid, "err", err)
		d.opts.Metrics.observe("unreachable", v)
	} else {
		v = licensestate.Verdict{Valid: resp.Valid, Reason: resp.Reason, CheckedAt: now, LastAttempt: now, Reachable: true,
			NextCheck: now.Add(d.opts.Interval)}
		if resp.Expires != nil {
			v.Expires = resp.Expires.UTC()
		}
		d.leftAtAnswer, d.usageAtAnswer = nil, u.RequestsTotal
		if resp.RequestsLeft != nil {
			left, basis := *resp.RequestsLeft, *resp.RequestsLeft
			v.RequestsLeft, d.leftAtAnswer = &left, &basis
		}
		d.logVerdict(v)
		result := "valid"
		if !v.Valid {
			result = "invalid"
		}
		d.opts.Metrics.observe(result, v)
	}
	if perr := d.publish(ctx, v); perr != nil {
		return v, errors.Join(err, perr)
	}
	return v, err
}

// Refresh republishes the last verdict with requests_left lowered by the
// requests counted since the server's last answer, so an installation
// cannot overrun its quota by a whole check interval.
func (d *Daemon) Refresh(ctx context.Context) error {
	if d.leftAtAnswer == nil || d.last.CheckedAt.IsZero() {
		return nil
	}
	u, err := ReadUsage(ctx, d.usage)
	if err != nil {
		return err
	}
	used := u.RequestsTotal - d.usageAtAnswer
	if used < 0 { // the counter was reset
		used = u.RequestsTotal
	}
	left := max(0, *d.leftAtAnswer-used)
	if d.last.RequestsLeft != nil && *d.last.RequestsLeft == left {
		return nil
	}
	v := d.last
	v.RequestsLeft = &left
	d.opts.Metrics.observe("", v)
	return d.publish(ctx, v)
}

// Last returns the verdict last published.
func (d *Daemon) Last() licensestate.Verdict { return d.last }

func (d *Daemon) publish(ctx context.Context, v licensestate.Verdict) error {
	if err := licensestate.Write(ctx, d.kv, v); err != nil {
		return fmt.Errorf("licensed: publish verdict: %w", err)
	}
	d.last = v
	return nil
}

// backoff is the pause after the attempt-th failed try: Backoff doubled
// per attempt, capped at MaxBackoff, with ±20 % jitter so many
// installations do not retry in step.
func (d *Daemon) backoff(attempt int) time.Duration {
	b := min(d.opts.MaxBackoff, d.opts.Backoff<<min(attempt-1, 16))
	jitter := time.Duration(float64(b) * 0.2 * (2*rand.Float64() - 1))
	return b + jitter
}

func (d *Daemon) logVerdict(v licensestate.Verdict) {
	attrs := []any{"valid", v.Valid, "expires", fmtTime(v.Expires)}
	if v.RequestsLeft != nil {
		attrs = append(attrs, "requests_left", *v.RequestsLeft)
	}
	if v.Reason != "" {
		attrs = append(attrs, "reason", v.Reason)
	}
	if err := v.Check(time.Now(), time.Duration(math.MaxInt64)); err != nil {
		d.opts.Log.Warn("license refused: the gateways answer 403", append(attrs, "err", err.Error())...)
		return
	}
	d.opts.Log.Info("license verified", attrs...)
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.Format(time.RFC3339)
}
