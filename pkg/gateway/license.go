package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
	"docsuite/pkg/licensed"
	"docsuite/pkg/licensestate"
)

// evaluationNote is what /healthcheck reports for the license, and the
// gateway logs at start, when LICENSE_ENFORCE=false.
const evaluationNote = "not enforced: evaluation mode (LICENSE_ENFORCE=false), every request is served without a license"

// licenseGate refuses requests without a valid license when enforced.
type licenseGate struct {
	enforce bool
	grace   time.Duration
	kv      jetstream.KeyValue
	js      jetstream.JetStream
	log     *slog.Logger

	mu sync.Mutex
	// logged is the state last logged (see note), so that each change
	// of what the gateways do with requests is logged once.
	logged string
}

func newLicenseGate(ctx context.Context, cfg config.Gateway, nc *nats.Conn, log *slog.Logger) (*licenseGate, error) {
	g := &licenseGate{enforce: cfg.LicenseEnforce, grace: time.Duration(cfg.LicenseGrace) * time.Second, log: log}
	if !g.enforce {
		log.Warn("license " + evaluationNote + "; production sets LICENSE_ENFORCE=true")
		return g, nil
	}
	var err error
	if g.js, err = jetstream.New(nc); err != nil {
		return nil, fmt.Errorf("gateway: jetstream: %w", err)
	}
	if g.kv, err = licensestate.Bind(ctx, g.js); err != nil {
		return nil, err
	}
	if g.kv == nil {
		log.Warn("license: bucket " + licensestate.Bucket + " not created yet and this gateway may not create it: " +
			"new requests are refused until the license daemon has created it and published its verdict")
	}
	return g, nil
}

// bucket is the verdict's KV bucket, bound now if newLicenseGate could
// not (nil while the license daemon has not created it).
func (g *licenseGate) bucket(ctx context.Context) (jetstream.KeyValue, error) {
	g.mu.Lock()
	kv := g.kv
	g.mu.Unlock()
	if kv != nil {
		return kv, nil
	}
	kv, err := g.js.KeyValue(ctx, licensestate.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.kv = kv
	g.mu.Unlock()
	return kv, nil
}

// check is nil when a new request may be served, else the 403 (or 503
// when the verdict cannot be read) to answer. A limited license's
// requests_left is lowered by the requests counted since the verdict was
// published, so the limit holds between the daemon's refreshes and while
// the daemon is stopped.
func (g *licenseGate) check(ctx context.Context) error {
	_, err := g.status(ctx)
	return err
}

// status is check with a note for /healthcheck when requests are served:
// "ok", evaluation mode, or the grace period running.
func (g *licenseGate) status(ctx context.Context) (string, error) {
	if !g.enforce {
		return evaluationNote, nil
	}
	kv, err := g.bucket(ctx)
	v := licensestate.Verdict{}
	if err == nil && kv != nil {
		v, err = licensestate.Read(ctx, kv)
	}
	if err != nil {
		return "", apierr.Wrap(apierr.DependencyDown, err, "License state unavailable")
	}
	if v.RequestsLeft != nil && v.UsageCounted != nil {
		if total, err := licensed.ReadTotal(ctx, g.js); err == nil {
			v = v.Counted(total)
		}
	}
	now := time.Now()
	err = v.Check(now, g.grace)
	note := g.note(v, now, err)
	if err != nil {
		return "", err
	}
	return note, nil
}

// note logs what the gateway does with new requests whenever that
// changes (served, served within the grace period, refused and why), so
// that an admin finds the reason for the 403s in the gateway's log, and
// returns the health note.
func (g *licenseGate) note(v licensestate.Verdict, now time.Time, refusal error) string {
	state, health, grace := "ok", "ok", ""
	switch {
	case refusal != nil:
		state = refusal.Error()
	case !v.OnSchedule(now):
		ends := v.CheckedAt.Add(g.grace).UTC().Format(time.RFC3339)
		state = "grace " + ends
		why := "license server not reached"
		if v.Reachable {
			why = "license daemon silent past its next check (is it running?)"
		}
		grace = fmt.Sprintf("%s: no answer since %s; requests are refused from %s (LICENSE_GRACE_SECONDS) unless it answers",
			why, v.CheckedAt.UTC().Format(time.RFC3339), ends)
		health = "ok: " + grace
	}
	g.mu.Lock()
	changed := state != g.logged
	g.logged = state
	g.mu.Unlock()
	if changed {
		switch {
		case refusal != nil:
			e := apierr.As(refusal).Envelope()
			g.log.Warn("license: new requests are refused with 403", "errno", e.Errno, "reason", e.Message,
				"last_answer", fmtTime(v.CheckedAt), "server_reachable", v.Reachable)
		case grace != "":
			g.log.Warn("license: "+grace, "last_answer", fmtTime(v.CheckedAt))
		default:
			g.log.Info("license: valid, requests are served", "expires", fmtTime(v.Expires), "last_answer", fmtTime(v.CheckedAt))
		}
	}
	return health
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

func (s *Server) requireLicense() gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := s.license.check(c.Request.Context()); err != nil {
			s.fail(c, err)
			return
		}
		c.Next()
	}
}
