package tasks

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"docsuite/pkg/bus"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// TestHandedBackTaskRunsFirst stops a gateway's runners, as SIGTERM does,
// while they run tasks, with a task of lower priority waiting behind them.
// The tasks handed back must run again at once on the next runner: on the
// NATS server started again on the same store (the all-in-one, whose
// embedded server stops with it), in their order of priority and before
// the waiting one, and on the same server (a gateway restarted in
// production). After such a restart they used to wait out AckWait (30 s),
// shown as running 0/N, while the task of lower priority ran first: the
// plain nak that handed them back told the server only in memory to
// deliver them again, and the server that restarted knew only the
// deliveries it had stored.
func TestHandedBackTaskRunsFirst(t *testing.T) {
	tests := []struct {
		name    string
		restart bool  // the server stops with the runners and starts again on its store
		running []int // priorities, lowest first, of the tasks the runners run as they stop
	}{
		{"server restarted", true, []int{5}},
		{"server restarted, two tasks running", true, []int{5, 7}},
		// The server delivers a task handed back again within 10 ms (its
		// timer for a delayed nak): a runner that fetches sooner, as the
		// next one here may, takes the waiting task first.
		{"same server", false, []int{5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			natsDir, objDir := t.TempDir(), t.TempDir()
			st, err := store.NewFolder(objDir)
			if err != nil {
				t.Fatal(err)
			}
			ns := startServer(t, natsDir)
			// AckWait far beyond the bound below: a task left to it fails
			// the test rather than run late.
			e := env{url: ns.ClientURL(), store: st, dir: objDir,
				opts: Options{TTL: time.Minute, Timeout: time.Minute, AckWait: 30 * time.Second}}
			first, firstNC := e.queue(t)
			runCtx, shutdown := context.WithCancel(ctx)
			defer shutdown()
			started := make(chan struct{}, len(tc.running))
			stopped := make(chan error, 1)
			go func() {
				stopped <- first.Run(runCtx, len(tc.running), func(ctx context.Context, _ Job, progress Progress) ([]byte, error) {
					progress(1, 3)
					started <- struct{}{}
					<-ctx.Done()
					return nil, ctx.Err()
				})
			}()
			var want []string
			for _, p := range tc.running {
				id := fmt.Sprintf("interrupted-p%d", p)
				want = append(want, id)
				if err := first.Enqueue(ctx, Job{ID: id, Priority: p}, ""); err != nil {
					t.Fatal(err)
				}
				select {
				case <-started:
				case <-time.After(10 * time.Second):
					t.Fatalf("no runner took %s", id)
				}
			}
			slices.Reverse(want) // by priority, highest first
			want = append(want, "waiting")
			if err := first.Enqueue(ctx, Job{ID: "waiting", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			shutdown()
			if err := awaitRun(stopped); err != nil {
				t.Fatal(err)
			}
			// The process ends as the all-in-one's does: its connection
			// closed, then its embedded server shut down.
			firstNC.Close()
			if tc.restart {
				ns.Shutdown()
				ns.WaitForShutdown()
				ns = startServer(t, natsDir)
				e.url = ns.ClientURL()
			}
			next, _ := e.queue(t)
			var mu sync.Mutex
			var order []string
			go func() {
				_ = next.Run(ctx, 1, func(_ context.Context, j Job, _ Progress) ([]byte, error) {
					mu.Lock()
					defer mu.Unlock()
					order = append(order, j.ID)
					return []byte(`{}`), nil
				})
			}()
			// The runner looks at the queue at once and every idlePoll; the
			// restarted server looks at the deliveries it stored as it starts.
			testutil.Eventually(t, 2*idlePoll+2*time.Second, func() error {
				mu.Lock()
				defer mu.Unlock()
				if len(order) < len(want) {
					return fmt.Errorf("ran %v, want %v", order, want)
				}
				return nil
			})
			mu.Lock()
			defer mu.Unlock()
			if tc.restart && !slices.Equal(order, want) {
				t.Errorf("ran %v, want %v: the tasks handed back first, highest priority first", order, want)
			}
			for _, id := range want[:len(tc.running)] {
				st, ok, err := next.Get(ctx, id)
				if err != nil || !ok || st.Status != Done || st.Attempts != 2 {
					t.Errorf("%s: state %+v (ok %v, err %v), want done on its second try", id, st, ok, err)
				}
			}
		})
	}
}

// startServer starts an embedded NATS server on the JetStream store dir,
// shut down when the test ends (a second Shutdown does nothing).
func startServer(t *testing.T, dir string) *server.Server {
	t.Helper()
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: dir, Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	return ns
}
