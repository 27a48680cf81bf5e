package bus

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"docsuite/pkg/apierr"
)

// fast is a liveness quick enough for tests: a beat every 50 ms, a worker
// lost after 400 ms of silence, 2 s for a lone worker's replacement.
var fast = liveness{beat: 50 * time.Millisecond, lost: 400 * time.Millisecond, restart: 2 * time.Second}

// serveOn starts a worker of stage on its own connection to nc's server,
// as a worker process holds one, with handler h; closing the returned
// connection is the process dying: no answer, no more beats.
func serveOn(t *testing.T, nc *nats.Conn, stage string, h Handler[echoReq, echoResp]) *nats.Conn {
	t.Helper()
	c := startNATS2(t, nc)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := Serve(c, stage, ServeOptions{Concurrency: 1, Timeout: time.Minute, Log: log, beat: fast.beat}, h); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	return c
}

// answer is what a request sent by ask came back with.
type answer struct {
	resp echoResp
	err  error
}

// ask sends a request for key to stage with the fast liveness, counting
// lost workers in m, and sends its answer on out.
func ask(ctx context.Context, nc *nats.Conn, stage, key string, m *Metrics, out chan<- answer) {
	resp, err := request[echoReq, echoResp](ctx, nc, stage, echoReq{Key: key}, fast, m)
	out <- answer{resp, err}
}

// hang is a handler that says it started and then works until its
// request is cancelled (or its process dies).
func hang(started chan<- struct{}) Handler[echoReq, echoResp] {
	return func(ctx context.Context, r echoReq) (echoResp, error) {
		started <- struct{}{}
		<-ctx.Done()
		return echoResp{}, ctx.Err()
	}
}

// TestWorkerLost: a worker killed while it holds a request stops beating;
// its caller sends the request once more, to the worker still running,
// and has the answer within a second or so, not at its deadline; killed
// twice, the request fails as dependency_down as soon.
func TestWorkerLost(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lastDies  bool
		late      time.Duration // the second worker starts this long after the first dies
		wantError bool
	}{
		{"answered by another worker", false, 0, false},
		{"answered by a replacement that starts late", false, 700 * time.Millisecond, false},
		{"lost twice", true, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			reg := prometheus.NewRegistry()
			metrics := NewMetrics(reg)
			started := make(chan struct{}, 2)
			first := serveOn(t, nc, "lost", hang(started))
			done := make(chan answer, 1)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			begin := time.Now()
			go ask(ctx, nc, "lost", "k", metrics, done)
			<-started
			if tc.late > 0 {
				first.Close()
				time.Sleep(tc.late)
			}
			var second *nats.Conn
			if tc.lastDies {
				second = serveOn(t, nc, "lost", hang(started))
			} else {
				serveOn(t, nc, "lost", func(ctx context.Context, r echoReq) (echoResp, error) {
					return echoResp{Key: r.Key, Worker: 2}, nil
				})
			}
			first.Close()
			if tc.lastDies {
				<-started
				second.Close()
			}
			r := <-done
			wantLost := 1.0
			if tc.lastDies {
				wantLost = 2
			}
			if got := testutil.ToFloat64(metrics.lost.WithLabelValues("lost")); got != wantLost {
				t.Errorf("workers lost counted %v, want %v", got, wantLost)
			}
			if took := time.Since(begin); took > 10*time.Second {
				t.Errorf("answered after %v; a lost worker should be given up within a second or so", took)
			}
			if tc.wantError {
				if apierr.As(r.err).Code != apierr.DependencyDown {
					t.Fatalf("err %v, want dependency_down", r.err)
				}
				return
			}
			if r.err != nil || r.resp.Worker != 2 || r.resp.Key != "k" {
				t.Fatalf("got %+v, %v; want worker 2's answer", r.resp, r.err)
			}
		})
	}
}

// TestBeatingWorkerIsWaitedFor: a request that takes many times the
// silence that counts as lost is waited for while its worker beats, and
// runs once.
func TestBeatingWorkerIsWaitedFor(t *testing.T) {
	nc := startNATS(t)
	var runs atomic.Int64
	serveOn(t, nc, "slow", func(ctx context.Context, r echoReq) (echoResp, error) {
		runs.Add(1)
		time.Sleep(4 * fast.lost)
		return echoResp{Key: r.Key, Worker: 1}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := request[echoReq, echoResp](ctx, nc, "slow", echoReq{Key: "k"}, fast, nil)
	if err != nil || resp.Key != "k" {
		t.Fatalf("got %+v, %v", resp, err)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the request ran %d times, want once", n)
	}
	if errors.As(err, new(errWorkerLost)) {
		t.Error("a beating worker taken for lost")
	}
}

// TestQueuedRequestOfLostWorker: a request still waiting for a slot in a
// worker that is killed is beaten for from its arrival, so its caller
// sends it again as soon as one that was running, not at its deadline.
func TestQueuedRequestOfLostWorker(t *testing.T) {
	nc := startNATS(t)
	started := make(chan struct{}, 4)
	first := serveOn(t, nc, "queued", hang(started)) // one slot
	done := make(chan answer, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go ask(ctx, nc, "queued", "running", nil, done)
	<-started
	go ask(ctx, nc, "queued", "queued", nil, done)
	time.Sleep(3 * fast.beat) // the second request reaches the worker and waits there
	serveOn(t, nc, "queued", func(ctx context.Context, r echoReq) (echoResp, error) {
		return echoResp{Key: r.Key, Worker: 2}, nil
	})
	begin := time.Now()
	first.Close()
	for range 2 {
		r := <-done
		if r.err != nil || r.resp.Worker != 2 {
			t.Errorf("got %+v, %v; want the other worker's answer", r.resp, r.err)
		}
	}
	if took := time.Since(begin); took > 10*time.Second {
		t.Errorf("answered %v after the worker died; its queued request should be sent again within a second or so", took)
	}
}
