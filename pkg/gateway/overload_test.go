package gateway

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/licensed"
	"docsuite/pkg/store"
)

// TestOverloadedRequestIsNotCounted fills every synchronous in-flight slot
// (MAX_INFLIGHT requests running) and checks what a further request gets:
// a synchronous one 503 overloaded (errno 21) with Retry-After, and it is
// neither counted against the license's requests nor stored; an async one
// is still queued (the queue, not the slots, bounds it) and counted once.
func TestOverloadedRequestIsNotCounted(t *testing.T) {
	s, srv := newTestGateway(t)
	usage, err := s.nc.SubscribeSync(licensed.UsageSubject)
	if err != nil {
		t.Fatal(err)
	}
	for len(s.inflight) < cap(s.inflight) {
		s.inflight <- struct{}{}
	}
	tests := []struct {
		name        string
		query       string
		wantStatus  int
		wantErrno   float64
		wantCounted int
	}{
		{"sync request refused", "", http.StatusServiceUnavailable, 21, 0},
		{"async request queued", "?async=true", http.StatusOK, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := postImageResp(t, srv.URL+"/pipelines/run/classify"+tc.query, testJPEG(t))
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status %d %v, want %d", resp.StatusCode, body, tc.wantStatus)
			}
			if tc.wantErrno != 0 {
				if body["errno"] != tc.wantErrno {
					t.Errorf("errno %v, want %v: %v", body["errno"], tc.wantErrno, body)
				}
				if resp.Header.Get("Retry-After") == "" {
					t.Errorf("503 without Retry-After: %v", resp.Header)
				}
			}
			if err := s.nc.Flush(); err != nil {
				t.Fatal(err)
			}
			if n := drain(t, usage); n != tc.wantCounted {
				t.Errorf("license usage counted %d times, want %d", n, tc.wantCounted)
			}
		})
	}
	if n := countObjects(t, s); n != 1 {
		t.Errorf("%d inputs in the store, want 1 (the queued task's only)", n)
	}
}

// drain counts the messages a subscription holds, waiting briefly for
// late ones.
func drain(t *testing.T, sub *nats.Subscription) int {
	t.Helper()
	n := 0
	for {
		_, err := sub.NextMsg(300 * time.Millisecond)
		if errors.Is(err, nats.ErrTimeout) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
}

// countObjects counts the request inputs in the gateway's store.
func countObjects(t *testing.T, s *Server) int {
	t.Helper()
	n := 0
	err := s.store.List(t.Context(), "tasks/", func(o store.Object) bool {
		if strings.HasSuffix(o.Key, "/input") {
			n++
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
