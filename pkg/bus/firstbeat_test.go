package bus

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"

	"docsuite/pkg/apierr"
)

// frozen subscribes a connection of its own to stage's queue group that
// never reads what NATS hands it, as a worker frozen or killed before it
// read a request; closing the connection is its death.
func frozen(t *testing.T, nc *nats.Conn, stage string) *nats.Conn {
	t.Helper()
	c := startNATS2(t, nc)
	if _, err := c.QueueSubscribeSync(Subject(stage), stage); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	return c
}

// oldWorker answers stage's requests after wait as a worker of a release
// before beats does: no beat, no beatsHeader; it counts its runs.
func oldWorker(t *testing.T, nc *nats.Conn, stage string, wait time.Duration, runs *atomic.Int64) {
	t.Helper()
	c := startNATS2(t, nc)
	if _, err := c.QueueSubscribe(Subject(stage), stage, func(m *nats.Msg) {
		go func() {
			runs.Add(1)
			time.Sleep(wait)
			_ = m.Respond([]byte(`{"result":{"key":"old","worker":9}}`))
		}()
	}); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestUnheardRequestSentAgain: a request handed to a worker that never
// reads it (frozen, or killed before it did) gets no beat at all. Once the
// stage's workers are known to beat, its caller sends it again after the
// silence that counts a worker as lost, to another worker, or fails it as
// dependency_down when none is left, instead of waiting out its deadline;
// a worker of an older release, which never beats, is waited for.
func TestUnheardRequestSentAgain(t *testing.T) {
	for _, tc := range []struct {
		name      string
		other     bool // a beating worker starts once the request is held
		dies      bool // the frozen worker's connection closes
		wantCode  apierr.Code
		wantWithn time.Duration
	}{
		{"answered by another worker", true, true, "", 3 * time.Second},
		{"no worker left", false, true, apierr.DependencyDown, 5 * time.Second},
		{"the frozen worker lives on, another starts", true, false, "", 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			m := NewMetrics(prometheus.NewRegistry())
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			// A beating worker answers once, and goes: the stage's workers
			// are known to beat.
			w := serveOn(t, nc, "unheard", func(ctx context.Context, r echoReq) (echoResp, error) {
				return echoResp{Key: r.Key, Worker: 1}, nil
			})
			if _, err := request[echoReq, echoResp](ctx, nc, "unheard", echoReq{Key: "warm"}, fast, m); err != nil {
				t.Fatal(err)
			}
			w.Close()
			f := frozen(t, nc, "unheard")
			done := make(chan answer, 1)
			begin := time.Now()
			go ask(ctx, nc, "unheard", "k", m, done)
			time.Sleep(fast.beat)
			if tc.other {
				serveOn(t, nc, "unheard", func(ctx context.Context, r echoReq) (echoResp, error) {
					return echoResp{Key: r.Key, Worker: 2}, nil
				})
			}
			if tc.dies {
				f.Close()
			} else {
				// Only the new worker takes the request sent again.
				if err := f.Drain(); err != nil {
					t.Fatal(err)
				}
			}
			r := <-done
			took := time.Since(begin)
			if took > tc.wantWithn {
				t.Errorf("answered after %v, want within %v (the deadline was 20 s)", took, tc.wantWithn)
			}
			if tc.wantCode != "" {
				if got := apierr.As(r.err).Code; got != tc.wantCode {
					t.Fatalf("err %v, want %s", r.err, tc.wantCode)
				}
				return
			}
			if r.err != nil || r.resp.Worker != 2 || r.resp.Key != "k" {
				t.Fatalf("got %+v, %v; want worker 2's answer", r.resp, r.err)
			}
		})
	}
}

// TestOldWorkerIsWaitedFor: where a worker of an older release answers,
// which never beats, a request that takes it longer than the silence that
// counts as lost is answered, and run at most twice: once before the
// stage's workers are known to beat, and once sent again when they are
// (a beating worker answered before), after which the old one's silent
// answer stops the deadline for the stage.
func TestOldWorkerIsWaitedFor(t *testing.T) {
	for _, tc := range []struct {
		name     string
		known    bool // a beating worker answered the stage before
		wantRuns []int64
	}{
		{"stage not known to beat", false, []int64{1, 1}},
		{"stage known to beat", true, []int64{2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			m := NewMetrics(prometheus.NewRegistry())
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if tc.known {
				w := serveOn(t, nc, "old", func(ctx context.Context, r echoReq) (echoResp, error) {
					return echoResp{Key: r.Key, Worker: 1}, nil
				})
				if _, err := request[echoReq, echoResp](ctx, nc, "old", echoReq{Key: "warm"}, fast, m); err != nil {
					t.Fatal(err)
				}
				w.Close()
			}
			var runs atomic.Int64
			oldWorker(t, nc, "old", 3*fast.lost, &runs)
			for i, want := range tc.wantRuns {
				runs.Store(0)
				resp, err := request[echoReq, echoResp](ctx, nc, "old", echoReq{Key: "k"}, fast, m)
				if err != nil || resp.Worker != 9 {
					t.Fatalf("request %d: got %+v, %v; want the old worker's answer", i, resp, err)
				}
				time.Sleep(3 * fast.lost) // a copy sent again finishes
				if got := runs.Load(); got != want {
					t.Errorf("request %d ran %d times, want %d", i, got, want)
				}
			}
		})
	}
}
