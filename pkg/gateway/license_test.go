package gateway

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/config"
	"docsuite/pkg/licensed"
	"docsuite/pkg/licensestate"
	"docsuite/pkg/testutil"
)

// TestQuotaLoweredOnEachRequest: the gateway lowers the published
// requests_left by the requests counted since the verdict was written,
// itself, on each request. It used to wait for the license daemon to
// republish (every 15 s, and never while the daemon was stopped): 40
// requests were served on a quota of 5 in under a second.
func TestQuotaLoweredOnEachRequest(t *testing.T) {
	cases := []struct {
		name           string
		left           int64
		countedAtWrite int64 // UsageCounted of the verdict
		countedBefore  int   // requests in the counter when the test starts
		wantServed     int
	}{
		{"a quota of 3", 3, 0, 0, 3},
		{"counted since the verdict was written", 3, 2, 3, 2},
		{"the counter reset since", 3, 100, 1, 2},
		{"used up by the requests counted since", 3, 0, 5, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestGateway(t, func(c *config.Gateway) { c.LicenseEnforce = true })
			js, err := jetstream.New(s.nc)
			if err != nil {
				t.Fatal(err)
			}
			usage, err := licensed.OpenUsage(t.Context(), js)
			if err != nil {
				t.Fatal(err)
			}
			counted := int64(0)
			for range tc.countedBefore {
				if err := licensed.CountRequest(s.nc); err != nil {
					t.Fatal(err)
				}
				counted++
			}
			waitCounted(t, usage, counted)
			now := time.Now().UTC()
			left, at := tc.left, tc.countedAtWrite
			v := licensestate.Verdict{Valid: true, RequestsLeft: &left, UsageCounted: &at, CheckedAt: now,
				LastAttempt: now, Reachable: true, NextCheck: now.Add(time.Hour)}
			if err := licensestate.Write(t.Context(), s.license.kv, v); err != nil {
				t.Fatal(err)
			}
			served := 0
			for i := 0; i < tc.wantServed+2; i++ {
				status, body := postImage(t, srv.URL+"/pipelines/run/classify?async=true", testJPEG(t))
				if status == http.StatusForbidden {
					if body["errno"] != float64(4) {
						t.Fatalf("refused with %v, want errno 4 (license_exhausted)", body)
					}
					break
				}
				if status != http.StatusOK {
					t.Fatalf("status %d %v", status, body)
				}
				served++
				counted++
				waitCounted(t, usage, counted)
			}
			if served != tc.wantServed {
				t.Fatalf("%d requests served, want %d", served, tc.wantServed)
			}
		})
	}
}

// waitCounted waits until the usage stream holds want requests.
func waitCounted(t *testing.T, usage jetstream.Stream, want int64) {
	t.Helper()
	testutil.Eventually(t, 5*time.Second, func() error {
		u, err := licensed.ReadUsage(t.Context(), usage)
		if err != nil {
			return err
		}
		if u.RequestsTotal != want {
			return fmt.Errorf("usage counter %d, want %d", u.RequestsTotal, want)
		}
		return nil
	})
}

// TestOnlyAnswersAndTasksCount: a request counts against the license's
// requests once it is answered (synchronous) or queued as a task (async),
// not when it fails on the installation's side. A synchronous request
// that met no crop worker (503, errno 22) was counted, as was every retry
// of it the client made after the Retry-After.
func TestOnlyAnswersAndTasksCount(t *testing.T) {
	s, srv := newTestGateway(t)
	usage, err := s.nc.SubscribeSync(licensed.UsageSubject)
	if err != nil {
		t.Fatal(err)
	}
	var taskID string
	cases := []struct {
		name        string
		do          func() (int, map[string]any)
		wantStatus  int
		wantCounted int
	}{
		{"sync, no crop worker running", func() (int, map[string]any) {
			return postImage(t, srv.URL+"/pipelines/run/classify", testJPEG(t))
		}, http.StatusServiceUnavailable, 0},
		{"async, queued", func() (int, map[string]any) {
			status, body := postImage(t, srv.URL+"/pipelines/run/classify?async=true", testJPEG(t))
			taskID, _ = body["task_id"].(string)
			return status, body
		}, http.StatusOK, 1},
		{"its /result polled", func() (int, map[string]any) {
			resp, err := http.Get(srv.URL + "/result/" + taskID)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode, nil
		}, http.StatusAccepted, 0},
		{"file too small", func() (int, map[string]any) {
			return postImage(t, srv.URL+"/pipelines/run/classify", []byte("tiny"))
		}, http.StatusUnsupportedMediaType, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := tc.do()
			if status != tc.wantStatus {
				t.Fatalf("status %d %v, want %d", status, body, tc.wantStatus)
			}
			if err := s.nc.Flush(); err != nil {
				t.Fatal(err)
			}
			if n := drain(t, usage); n != tc.wantCounted {
				t.Errorf("license usage counted %d times, want %d", n, tc.wantCounted)
			}
		})
	}
}
