package bus

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"
)

// TestCallerLeavingStopsTheWork checks that a stage request whose caller
// stops waiting is stopped on the worker: a running handler sees its
// context cancelled at once (not at the worker's 30 s timeout), and a
// request still waiting for the worker's only slot never runs.
func TestCallerLeavingStopsTheWork(t *testing.T) {
	nc := startNATS(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var ran atomic.Int64
	cancelled := make(chan string, 4)
	release := make(chan struct{})
	w, err := Serve(nc, "slow", ServeOptions{Concurrency: 1, Timeout: 30 * time.Second, Log: log},
		func(ctx context.Context, r echoReq) (echoResp, error) {
			ran.Add(1)
			select {
			case <-ctx.Done():
				cancelled <- r.Key
				return echoResp{}, ctx.Err()
			case <-release:
				return echoResp{Key: r.Key}, nil
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })

	tests := []struct {
		name string
		// hold, where set, occupies the worker's only slot with a
		// request that runs until released, so the tested one waits.
		hold    bool
		wantRun int64
	}{
		{"running request is cancelled", false, 1},
		{"waiting request never runs", true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ran.Store(0)
			held := make(chan error, 1)
			if tc.hold {
				go func() {
					_, err := Request[echoReq, echoResp](context.Background(), nc, "slow", echoReq{Key: "holder"})
					held <- err
				}()
				waitFor(t, func() bool { return ran.Load() == 1 })
			}
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := Request[echoReq, echoResp](ctx, nc, "slow", echoReq{Key: "left"})
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("request answered %v, want the caller's deadline", err)
			}
			if tc.hold {
				// The cancellation reaches the worker on a subscription
				// of its own: release the slot once it has (a request
				// started before it arrives is cancelled as it runs).
				waitFor(t, func() bool {
					w.cancels.mu.Lock()
					defer w.cancels.mu.Unlock()
					return len(w.cancels.early) == 1
				})
				close(release)
				if err := <-held; err != nil {
					t.Fatalf("the holding request: %v", err)
				}
				// Give the waiting request the slot it would have taken.
				time.Sleep(300 * time.Millisecond)
			} else {
				select {
				case key := <-cancelled:
					if key != "left" {
						t.Fatalf("cancelled %q", key)
					}
					if d := time.Since(start); d > 5*time.Second {
						t.Errorf("cancelled after %v", d)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("the handler still runs 10 s after its caller left")
				}
			}
			if got := ran.Load(); got != tc.wantRun {
				t.Errorf("%d handlers ran, want %d", got, tc.wantRun)
			}
		})
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 5 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRememberedCancellationsExpire checks that the ids of requests
// cancelled before they reached this worker (most are other replicas'
// or other stages') are forgotten once a request timeout has passed, and
// that a remembered id still stops its request within that time.
func TestRememberedCancellationsExpire(t *testing.T) {
	c := newCancels(time.Minute)
	t0 := time.Unix(1000, 0)
	for i := range 1000 {
		c.cancel(string(rune('a'+i%26))+time.Duration(i).String(), t0.Add(time.Duration(i)*time.Millisecond))
	}
	if len(c.early) != 1000 || len(c.order) != 1000 {
		t.Fatalf("%d remembered, %d in order, want 1000", len(c.early), len(c.order))
	}
	c.cancel("late", t0.Add(2*time.Minute))
	if len(c.early) != 1 || len(c.order) != 1 {
		t.Errorf("after the timeout %d remembered, %d in order, want only the last", len(c.early), len(c.order))
	}
	if c.start("late", func() {}, t0.Add(2*time.Minute)) {
		t.Error("a request cancelled while it waited was started")
	}
	if !c.start("other", func() {}, t0.Add(2*time.Minute)) {
		t.Error("a request nobody cancelled was not started")
	}
}
