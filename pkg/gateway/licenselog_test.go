package gateway

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"docsuite/pkg/config"
	"docsuite/pkg/licensestate"
)

// syncBuffer is a log sink safe for the gateway's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// take returns what was written since the last take.
func (b *syncBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}

// TestLicenseStateLogged: the gateway logs, once each time it changes,
// what it does with new requests and why: served, served within the grace
// period (until when), refused (the errno and the reason). It logged
// nothing (the 403s are client errors), so an admin whose clients were
// all refused found no line saying why in the gateways' logs, and the
// license daemon's own lines cannot say when the gateways' grace ends.
// Its /healthcheck says the same of the license.
func TestLicenseStateLogged(t *testing.T) {
	s, srv := newTestGateway(t, func(c *config.Gateway) { c.LicenseEnforce, c.LicenseGrace = true, 3600 })
	var logs syncBuffer
	s.license.log = slog.New(slog.NewJSONHandler(&logs, nil))
	now := time.Now().UTC()
	steps := []struct {
		name       string
		verdict    licensestate.Verdict
		wantStatus int
		wantLog    string // "" for no line
		wantHealth string
	}{
		{"valid", licensestate.Verdict{Valid: true, CheckedAt: now, LastAttempt: now, Reachable: true, NextCheck: now.Add(time.Hour)},
			http.StatusUnsupportedMediaType, "license: valid, requests are served", "ok"},
		{"valid, unchanged", licensestate.Verdict{Valid: true, CheckedAt: now, LastAttempt: now, Reachable: true, NextCheck: now.Add(time.Hour)},
			http.StatusUnsupportedMediaType, "", "ok"},
		{"server unreachable, within grace", licensestate.Verdict{Valid: true, CheckedAt: now.Add(-10 * time.Minute), LastAttempt: now, NextCheck: now},
			http.StatusUnsupportedMediaType, "requests are refused from " + now.Add(-10*time.Minute+time.Hour).Format(time.RFC3339), "ok: license server not reached: no answer since"},
		{"license daemon silent, within grace", licensestate.Verdict{Valid: true, CheckedAt: now.Add(-30 * time.Minute), LastAttempt: now.Add(-30 * time.Minute), Reachable: true, NextCheck: now.Add(-15 * time.Minute)},
			http.StatusUnsupportedMediaType, "license: license daemon silent past its next check", "ok: license daemon silent"},
		{"grace over", licensestate.Verdict{Valid: true, CheckedAt: now.Add(-2 * time.Hour), LastAttempt: now, NextCheck: now},
			http.StatusForbidden, `"msg":"license: new requests are refused with 403","errno":2,"reason":"License server unreachable since`, "license_invalid: License server unreachable"},
		{"expired", licensestate.Verdict{Valid: true, Expires: now.Add(-time.Minute), CheckedAt: now, LastAttempt: now, Reachable: true, NextCheck: now.Add(time.Hour)},
			http.StatusForbidden, `"errno":3,"reason":"License has expired"`, "license_expired"},
		{"renewed", licensestate.Verdict{Valid: true, CheckedAt: now, LastAttempt: now, Reachable: true, NextCheck: now.Add(time.Hour)},
			http.StatusUnsupportedMediaType, "license: valid, requests are served", "ok"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := licensestate.Write(t.Context(), s.license.kv, st.verdict); err != nil {
				t.Fatal(err)
			}
			if status, body := postImage(t, srv.URL+"/pipelines/run/classify", []byte("tiny")); status != st.wantStatus {
				t.Fatalf("status %d %v, want %d", status, body, st.wantStatus)
			}
			got := logs.take()
			if st.wantLog == "" && got != "" || !strings.Contains(got, st.wantLog) {
				t.Errorf("log:\n%s\nwant a line with %q", got, st.wantLog)
			}
			if h := healthLicense(t, srv.URL); !strings.HasPrefix(h, st.wantHealth) {
				t.Errorf("healthcheck license %q, want it to start with %q", h, st.wantHealth)
			}
			logs.take()
		})
	}
}

// TestEvaluationModeReported: a gateway that does not enforce the license
// says so at start (WARNING) and in /healthcheck, instead of "ok", so that
// a production gateway started without LICENSE_ENFORCE=true is noticed.
func TestEvaluationModeReported(t *testing.T) {
	var logs syncBuffer
	cases := []struct {
		name       string
		enforce    bool
		wantLog    string
		wantHealth string
	}{
		{"evaluation mode", false, "license not enforced: evaluation mode (LICENSE_ENFORCE=false)", "not enforced: evaluation mode"},
		{"enforced, no verdict yet", true, "", "license_invalid: License has not been verified yet"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestGateway(t, func(c *config.Gateway) { c.LicenseEnforce = tc.enforce })
			g, err := newLicenseGate(t.Context(), s.cfg, s.nc, slog.New(slog.NewJSONHandler(&logs, nil)))
			if err != nil {
				t.Fatal(err)
			}
			s.license = g
			if got := logs.take(); !strings.Contains(got, tc.wantLog) || tc.wantLog == "" && got != "" {
				t.Errorf("start log:\n%s\nwant %q", got, tc.wantLog)
			}
			if h := healthLicense(t, srv.URL); !strings.HasPrefix(h, tc.wantHealth) {
				t.Errorf("healthcheck license %q, want it to start with %q", h, tc.wantHealth)
			}
			logs.take()
		})
	}
}

// healthLicense is the license entry of /healthcheck's checks.
func healthLicense(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/healthcheck")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body struct {
		Checks map[string]string `json:"checks"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("healthcheck %s: %v", raw, err)
	}
	return body.Checks["license"]
}
