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

	"docsuite/pkg/apierr"
)

type echoReq struct {
	Key  string `json:"key"`
	Fail string `json:"fail"`
}
type echoResp struct {
	Key    string `json:"key"`
	Worker int    `json:"worker"`
}

func startNATS(t *testing.T) *nats.Conn {
	t.Helper()
	ns, err := StartEmbedded(EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	nc, err := Connect(ns.ClientURL(), "test", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func TestRequestReply(t *testing.T) {
	nc := startNATS(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var served [2]atomic.Int64
	for i := range 2 {
		w, err := Serve(nc, "echo", ServeOptions{Concurrency: 2, Timeout: time.Second, Log: log}, func(ctx context.Context, r echoReq) (echoResp, error) {
			served[i].Add(1)
			switch r.Fail {
			case "model":
				return echoResp{}, apierr.New(apierr.ModelNotLoaded, "")
			case "panic":
				panic("boom")
			}
			return echoResp{Key: r.Key, Worker: i}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Stop() })
	}
	ctx := context.Background()
	tests := []struct {
		name     string
		req      echoReq
		wantCode apierr.Code
	}{
		{"ok", echoReq{Key: "tasks/x"}, ""},
		{"catalogue error crosses the bus", echoReq{Fail: "model"}, apierr.ModelNotLoaded},
		{"panic becomes internal", echoReq{Fail: "panic"}, apierr.Internal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := Request[echoReq, echoResp](ctx, nc, "echo", tc.req)
			if tc.wantCode == "" {
				if err != nil || resp.Key != tc.req.Key {
					t.Fatalf("got %+v, %v", resp, err)
				}
				return
			}
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode {
				t.Fatalf("want %s, got %v", tc.wantCode, err)
			}
		})
	}
	// Queue group: both replicas get work.
	for range 40 {
		if _, err := Request[echoReq, echoResp](ctx, nc, "echo", echoReq{Key: "k"}); err != nil {
			t.Fatal(err)
		}
	}
	if served[0].Load() == 0 || served[1].Load() == 0 {
		t.Errorf("load not shared: %d / %d", served[0].Load(), served[1].Load())
	}
}

func TestNoWorkerIsDependencyDown(t *testing.T) {
	nc := startNATS(t)
	_, err := Request[echoReq, echoResp](context.Background(), nc, "absent", echoReq{})
	if apierr.As(err).Code != apierr.DependencyDown {
		t.Fatalf("got %v", err)
	}
}

// TestFollowProgress checks that a task's progress reports reach the
// follower in order, that another task's do not, and that none arrives
// after stop.
func TestFollowProgress(t *testing.T) {
	nc := startNATS(t)
	pub := startNATS2(t, nc)
	got := make(chan [2]int, 8)
	stop, err := FollowProgress(nc, "task-a", func(done, total int) { got <- [2]int{done, total} })
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][3]any{{"task-a", 1, 3}, {"task-b", 1, 9}, {"task-a", 2, 3}} {
		if err := PublishProgress(pub, r[0].(string), r[1].(int), r[2].(int)); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range [][2]int{{1, 3}, {2, 3}} {
		select {
		case g := <-got:
			if g != want {
				t.Fatalf("report %v, want %v", g, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("report %v never came", want)
		}
	}
	stop()
	if err := PublishProgress(pub, "task-a", 3, 3); err != nil {
		t.Fatal(err)
	}
	if err := pub.Flush(); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-got:
		t.Errorf("report %v after stop", g)
	case <-time.After(200 * time.Millisecond):
	}
}

// startNATS2 opens a second connection to nc's server, as a worker holds
// its own.
func startNATS2(t *testing.T, nc *nats.Conn) *nats.Conn {
	t.Helper()
	c, err := nats.Connect(nc.ConnectedUrl())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// TestStopAnswersWhatItHolds stops a busy worker, as a role does on
// SIGTERM, while requests wait for it: every request it had already
// received must still be answered before Stop returns, none left to run
// into its timeout (one was: Stop took the free slots while a request
// NATS had handed over waited for one).
func TestStopAnswersWhatItHolds(t *testing.T) {
	nc := startNATS(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	started := make(chan struct{}, 8)
	w, err := Serve(nc, "slow", ServeOptions{Concurrency: 1, Timeout: 10 * time.Second, Log: log}, func(ctx context.Context, r echoReq) (echoResp, error) {
		started <- struct{}{}
		time.Sleep(150 * time.Millisecond)
		return echoResp{Key: r.Key}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const n = 4
	errs := make(chan error, n)
	for i := range n {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			key := string(rune('a' + i))
			resp, err := Request[echoReq, echoResp](ctx, nc, "slow", echoReq{Key: key})
			if err == nil && resp.Key != key {
				err = errors.New("answered " + resp.Key + " for " + key)
			}
			errs <- err
		}()
	}
	<-started
	if err := nc.Flush(); err != nil { // the other requests are on their way to the worker
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	stopped := time.Now()
	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(stopped)
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("a request the worker held when stopped: %v", err)
		}
	}
	if took < 300*time.Millisecond {
		t.Errorf("Stop returned after %v, before the requests it held (150 ms each, one at a time) were done", took)
	}
}

// TestCancelledRequestIsNotTheBus cancels a request while its worker runs:
// the error is the caller's context.Canceled, not a dependency_down
// ("Message bus unavailable") an operator would go looking at NATS for.
func TestCancelledRequestIsNotTheBus(t *testing.T) {
	nc := startNATS(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	running := make(chan struct{}, 1)
	w, err := Serve(nc, "busy", ServeOptions{Concurrency: 1, Timeout: 5 * time.Second, Log: log}, func(ctx context.Context, r echoReq) (echoResp, error) {
		running <- struct{}{}
		time.Sleep(300 * time.Millisecond)
		return echoResp{Key: r.Key}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-running; cancel() }()
	_, err = Request[echoReq, echoResp](ctx, nc, "busy", echoReq{Key: "k"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	var e *apierr.Error
	if errors.As(err, &e) {
		t.Errorf("a cancelled request became the catalogue error %s", e.Code)
	}
}
