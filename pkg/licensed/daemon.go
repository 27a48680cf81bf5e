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

	"docsuite/pkg/config"
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

	// last is the verdict last published (or found in KV at start); its
	// RequestsLeft and UsageCounted say how many requests were left at
	// which value of the usage counter, so a restarted daemon, like the
	// gateways, goes on counting from there.
	last licensestate.Verdict
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
	if d.last.RequestsLeft != nil && d.last.UsageCounted == nil {
		// A verdict of an earlier release: its count starts now.
		if u, err := ReadUsage(ctx, us); err == nil {
			d.last.UsageCounted = &u.RequestsTotal
		}
	}
	return d, nil
}

// Run checks at once, then every Interval (sooner after a check that got
// no answer or a refusal, and at once when the requests left run out
// between checks), lowers requests_left by the counted usage every
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
		if err != nil || !servable(v) {
			// No answer, or a refusal the vendor may lift (a renewal, a
			// top-up): ask again sooner than the regular interval.
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
				was := servable(d.last)
				if err := d.Refresh(ctx); err != nil {
					d.opts.Log.Warn("license usage refresh failed", "err", err)
				}
				if was && !servable(d.last) {
					// Used up between checks: report the usage now, so a
					// quota the vendor topped up is picked up.
					timer.Stop()
					break waiting
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
		u = Usage{}
		if d.last.UsageCounted != nil {
			u.RequestsTotal = *d.last.UsageCounted
		}
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
			"url", config.RedactURLs(d.opts.URL), "last_answer", fmtTime(v.CheckedAt), "valid", v.Valid, "err", err)
		d.opts.Metrics.observe("unreachable", v)
	} else {
		v = licensestate.Verdict{Valid: resp.Valid, Reason: resp.Reason, CheckedAt: now, LastAttempt: now, Reachable: true,
			NextCheck: now.Add(d.opts.Interval)}
		if resp.Expires != nil {
			v.Expires = d.localExpiry(*resp.Expires, resp.ServerTime, now)
		}
		if resp.RequestsLeft != nil {
			left, counted := *resp.RequestsLeft, u.RequestsTotal
			v.RequestsLeft, v.UsageCounted = &left, &counted
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
// requests counted since it was published (licensestate.Verdict.Counted),
// for the metrics and whoever reads the bucket; the gateways lower it
// themselves on each request.
func (d *Daemon) Refresh(ctx context.Context) error {
	if d.last.RequestsLeft == nil || d.last.UsageCounted == nil || d.last.CheckedAt.IsZero() {
		return nil
	}
	u, err := ReadUsage(ctx, d.usage)
	if err != nil {
		return err
	}
	v := d.last.Counted(u.RequestsTotal)
	if *v.RequestsLeft == *d.last.RequestsLeft && *v.UsageCounted == *d.last.UsageCounted {
		return nil
	}
	d.opts.Metrics.observe("", v)
	return d.publish(ctx, v)
}

// clockTolerance is how far this machine's clock may differ from the
// license server's before the daemon says so.
const clockTolerance = time.Minute

// localExpiry is the license's end on this machine's clock: expires is on
// the server's clock, which read serverTime (its Date header) when it
// answered at now. A host clock that is off would otherwise end the
// license early (fast) or late (slow) by as much; without a Date header
// expires is taken as it is.
func (d *Daemon) localExpiry(expires, serverTime, now time.Time) time.Time {
	expires = expires.UTC()
	if serverTime.IsZero() {
		return expires
	}
	skew := now.Sub(serverTime).Truncate(time.Second)
	if skew.Abs() > clockTolerance {
		d.opts.Log.Warn("this machine's clock differs from the license server's; the license's end is judged by the server's clock",
			"local_minus_server", skew.String(), "server_time", fmtTime(serverTime), "expires_server_clock", fmtTime(expires),
			"expires_local_clock", fmtTime(expires.Add(skew)))
	}
	return expires.Add(skew)
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
