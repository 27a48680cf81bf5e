package licensed

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
	"docsuite/pkg/licensestate"
)

const grace = 72 * time.Hour

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// published reads the verdict the gateways see.
func published(t *testing.T, d *Daemon) licensestate.Verdict {
	t.Helper()
	v, err := licensestate.Read(ctxT(t), d.kv)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// errnoOf is the errno the gateway answers for v at now (0: served).
func errnoOf(v licensestate.Verdict, now time.Time) int {
	err := v.Check(now, grace)
	if err == nil {
		return 0
	}
	return apierr.As(err).Envelope().Errno
}

func errno(c apierr.Code) int { return apierr.Lookup(c).Errno }

func TestCheckVerdicts(t *testing.T) {
	future := time.Now().Add(30 * 24 * time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-24 * time.Hour).UTC().Format(time.RFC3339)
	cases := []struct {
		name      string
		script    []answer
		wantErrno int
		wantHits  int
		wantLeft  int64 // -1: unlimited
	}{
		{"valid", []answer{{200, `{"valid":true,"expires":"` + future + `","requests_left":1000}`}}, 0, 1, 1000},
		{"valid unlimited", []answer{{200, `{"valid":true}`}}, 0, 1, -1},
		{"expired", []answer{{200, `{"valid":false,"reason":"expired","expires":"` + past + `"}`}}, errno(apierr.LicenseExpired), 1, -1},
		{"expired though marked valid", []answer{{200, `{"valid":true,"expires":"` + past + `"}`}}, errno(apierr.LicenseExpired), 1, -1},
		{"exhausted", []answer{{200, `{"valid":true,"expires":"` + future + `","requests_left":0}`}}, errno(apierr.LicenseExhausted), 1, 0},
		{"revoked", []answer{{200, `{"valid":false,"reason":"revoked"}`}}, errno(apierr.LicenseInvalid), 1, -1},
		{"unknown token 403", []answer{{403, `{"valid":false,"reason":"unknown token"}`}}, errno(apierr.LicenseInvalid), 1, -1},
		{"401 without a body", []answer{{401, ``}}, errno(apierr.LicenseInvalid), 1, -1},
		{"503 twice then valid", []answer{{503, ``}, {503, ``}, {200, `{"valid":true}`}}, 0, 3, -1},
		{"dropped connection then valid", []answer{{0, ``}, {200, `{"valid":true}`}}, 0, 2, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			ls := startLicenseServer(t, tc.script...)
			d := newDaemon(t, nc, ls, "")
			v, err := d.Check(ctxT(t))
			if err != nil {
				t.Fatalf("check: %v", err)
			}
			got := published(t, d)
			if !got.Reachable || got.CheckedAt.IsZero() {
				t.Fatalf("published verdict %+v: want reachable with a check time", got)
			}
			if want := got.CheckedAt.Add(d.opts.Interval); !got.NextCheck.Equal(want) {
				t.Fatalf("next check %v, want the check time plus the interval, %v", got.NextCheck, want)
			}
			if e := errnoOf(got, time.Now()); e != tc.wantErrno {
				t.Fatalf("gateway errno = %d, want %d (verdict %+v)", e, tc.wantErrno, v)
			}
			left := int64(-1)
			if got.RequestsLeft != nil {
				left = *got.RequestsLeft
			}
			if left != tc.wantLeft {
				t.Fatalf("requests_left = %d, want %d", left, tc.wantLeft)
			}
			if n := len(ls.received()); n != tc.wantHits {
				t.Fatalf("license server got %d requests, want %d", n, tc.wantHits)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	cases := []struct {
		name       string
		answeredOK bool          // the server answered valid once before going away
		after      time.Duration // how long after the last answer the gateway asks
		wantErrno  int
	}{
		{"within grace", true, grace - time.Minute, 0},
		{"past grace", true, grace + time.Minute, errno(apierr.LicenseInvalid)},
		{"never answered", false, 0, errno(apierr.LicenseInvalid)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			ls := startLicenseServer(t, answer{200, `{"valid":true,"requests_left":50}`})
			d := newDaemon(t, nc, ls, "")
			if tc.answeredOK {
				if _, err := d.Check(ctxT(t)); err != nil {
					t.Fatal(err)
				}
			}
			first := published(t, d)
			ls.srv.Close()
			if _, err := d.Check(ctxT(t)); err == nil {
				t.Fatal("check against a closed server succeeded")
			}
			v := published(t, d)
			if v.Reachable || v.LastAttempt.IsZero() {
				t.Fatalf("verdict %+v: want unreachable with an attempt time", v)
			}
			if !v.CheckedAt.Equal(first.CheckedAt) {
				t.Fatalf("CheckedAt moved from %v to %v without an answer", first.CheckedAt, v.CheckedAt)
			}
			now := time.Now()
			if tc.answeredOK {
				now = v.CheckedAt.Add(tc.after)
			}
			if e := errnoOf(v, now); e != tc.wantErrno {
				t.Fatalf("gateway errno = %d, want %d (verdict %+v)", e, tc.wantErrno, v)
			}
		})
	}
}

// TestRestartKeepsVerdict: a daemon restarted while the license server is
// away publishes the previous answer, not "never verified".
func TestRestartKeepsVerdict(t *testing.T) {
	nc := startNATS(t)
	ls := startLicenseServer(t, answer{200, `{"valid":true,"requests_left":7}`})
	if _, err := newDaemon(t, nc, ls, "").Check(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	ls.srv.Close()
	d := newDaemon(t, nc, ls, "")
	if _, err := d.Check(ctxT(t)); err == nil {
		t.Fatal("want unreachable")
	}
	v := published(t, d)
	if e := errnoOf(v, time.Now()); e != 0 || v.Reachable || v.RequestsLeft == nil || *v.RequestsLeft != 7 {
		t.Fatalf("after restart: errno %d, verdict %+v", e, v)
	}
}

// TestReportAndUsage: the request carries token, instance, version and the
// usage counter; requests_left published to the gateways goes down with
// the counted requests between checks.
func TestReportAndUsage(t *testing.T) {
	nc := startNATS(t)
	ls := startLicenseServer(t, answer{200, `{"valid":true,"requests_left":10}`})
	d := newDaemon(t, nc, ls, "")
	count := func(n int) {
		for range n {
			if err := CountRequest(nc); err != nil {
				t.Fatal(err)
			}
		}
		if err := nc.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	waitUsage := func(want int64) {
		deadline := time.Now().Add(5 * time.Second)
		for {
			u, err := ReadUsage(ctxT(t), d.usage)
			if err == nil && u.RequestsTotal == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("usage counter = %+v (%v), want %d", u, err, want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	count(3)
	waitUsage(3)
	if _, err := d.Check(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	reqs := ls.received()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Token != "tok-123" || r.InstanceID != "test-node" || r.Version != "4.148.0" || r.Usage.RequestsTotal != 3 || r.Usage.Since.IsZero() {
		t.Fatalf("request %+v", r)
	}
	count(4)
	waitUsage(7)
	if err := d.Refresh(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if v := published(t, d); v.RequestsLeft == nil || *v.RequestsLeft != 6 {
		t.Fatalf("after 4 more requests: %+v, want requests_left 6", v)
	}
	count(20)
	waitUsage(27)
	if err := d.Refresh(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	v := published(t, d)
	if e := errnoOf(v, time.Now()); e != errno(apierr.LicenseExhausted) {
		t.Fatalf("after overrunning the quota: errno %d, verdict %+v", e, v)
	}
}

// TestProxy: with LICENSE_PROXY set, the check goes through the proxy's
// CONNECT tunnel and still verifies the server's certificate.
func TestProxy(t *testing.T) {
	nc := startNATS(t)
	ls := startLicenseServer(t, answer{200, `{"valid":true}`})
	px := startConnectProxy(t)
	d := newDaemon(t, nc, ls, px.srv.URL)
	if _, err := d.Check(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if px.tunnels.Load() == 0 {
		t.Fatal("the check did not go through the proxy")
	}
	if len(ls.received()) != 1 {
		t.Fatal("license server not reached")
	}
}

// TestUntrustedCertificate: without the CA the server's certificate is
// refused, which counts as unreachable (never as a valid license).
func TestUntrustedCertificate(t *testing.T) {
	nc := startNATS(t)
	ls := startLicenseServer(t, answer{200, `{"valid":true}`})
	ls.caFile = ""
	d := newDaemon(t, nc, ls, "")
	_, err := d.Check(ctxT(t))
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("err = %v, want a certificate error", err)
	}
	if len(ls.received()) != 0 {
		t.Fatal("request reached the server over an unverified connection")
	}
}

// TestRunOnDemand: Run checks on start, and again on a request on
// CheckSubject, answering with the new verdict.
func TestRunOnDemand(t *testing.T) {
	nc := startNATS(t)
	ls := startLicenseServer(t, answer{200, `{"valid":true}`})
	d := newDaemon(t, nc, ls, "")
	runDaemon(t, d)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := licensestate.Open(ctxT(t), js)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		v, err := licensestate.Read(ctxT(t), kv)
		if err == nil && v.Valid {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no valid verdict after start: %+v %v", v, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ls.setScript(answer{200, `{"valid":false,"reason":"revoked"}`})
	msg, err := nc.Request(CheckSubject, nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var v licensestate.Verdict
	if err := json.Unmarshal(msg.Data, &v); err != nil {
		t.Fatalf("reply %q: %v", msg.Data, err)
	}
	if v.Valid || v.Reason != "revoked" {
		t.Fatalf("on-demand verdict %+v", v)
	}
}

func TestValidate(t *testing.T) {
	base := func() config.License {
		var c config.License
		if err := config.Load(&c, ""); err != nil {
			t.Fatal(err)
		}
		c.Token, c.URL = "tok", "https://license.example/check"
		return c
	}
	cases := []struct {
		name    string
		edit    func(*config.License)
		wantErr string
	}{
		{"ok", func(*config.License) {}, ""},
		{"no token", func(c *config.License) { c.Token = " " }, "LICENSE_TOKEN"},
		{"no url", func(c *config.License) { c.URL = "" }, "LICENSE_URL is required"},
		{"plain http", func(c *config.License) { c.URL = "http://license.example/" }, "https://"},
		{"bad interval", func(c *config.License) { c.Interval = 0 }, "LICENSE_CHECK_INTERVAL"},
		{"bad proxy", func(c *config.License) { c.Proxy = "socks5://p:1080" }, "LICENSE_PROXY"},
		{"good proxy", func(c *config.License) { c.Proxy = "http://proxy.corp:3128" }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.edit(&c)
			err := Validate(c)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Validate = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// runDaemon runs d until the test ends, then stops it and reports the
// error Run returned.
func runDaemon(t *testing.T, d *Daemon) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
}
