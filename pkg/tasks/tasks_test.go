package tasks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type env struct {
	url   string
	store store.Store
	// dir is the folder store's root.
	dir  string
	opts Options
}

func newEnv(t *testing.T) env {
	t.Helper()
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	dir := t.TempDir()
	st, err := store.NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return env{url: ns.ClientURL(), store: st, dir: dir, opts: Options{TTL: time.Minute, Timeout: 10 * time.Second, AckWait: time.Second}}
}

func (e env) queue(t *testing.T) (*Queue, *nats.Conn) {
	t.Helper()
	nc, err := bus.Connect(e.url, "test", quiet)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	q, err := Open(context.Background(), nc, e.store, e.opts, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return q, nc
}

func TestPriorityOrder(t *testing.T) {
	e := newEnv(t)
	q, _ := e.queue(t)
	ctx := context.Background()
	// Queue everything before a runner starts, then check run order.
	for i, p := range []int{1, 5, 1, 20, 3} {
		id := fmt.Sprintf("t%d", i)
		if err := q.Enqueue(ctx, Job{ID: id, Method: "classify", Priority: p}, "owner"); err != nil {
			t.Fatal(err)
		}
	}
	// A message JetStream has stored reaches its consumer a moment later:
	// wait until every level's consumer counts its tasks, or a loaded
	// machine lets the runner see a lower level first.
	testutil.Eventually(t, 5*time.Second, func() error {
		pending := 0
		for p := 1; p <= MaxPriority; p++ {
			info, err := q.cons[p].Info(ctx)
			if err != nil {
				return err
			}
			pending += int(info.NumPending)
		}
		if pending < 5 {
			return fmt.Errorf("%d of 5 tasks pending", pending)
		}
		return nil
	})
	var mu sync.Mutex
	var order []string
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go q.Run(runCtx, 1, func(ctx context.Context, j Job, _ Progress) ([]byte, error) {
		mu.Lock()
		order = append(order, j.ID)
		mu.Unlock()
		return []byte(`{"ok":true}`), nil
	})
	testutil.Eventually(t, 5*time.Second, func() error {
		mu.Lock()
		defer mu.Unlock()
		if len(order) < 5 {
			return fmt.Errorf("ran %v", order)
		}
		return nil
	})
	want := []string{"t3", "t1", "t4", "t0", "t2"}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", order, want)
	}
	st, ok, err := q.Get(ctx, "t3")
	if err != nil || !ok || st.Status != Done {
		t.Fatalf("state %+v %v %v", st, ok, err)
	}
	body, err := q.Result(ctx, st)
	if err != nil || string(body) != `{"ok":true}` {
		t.Errorf("result %s %v", body, err)
	}
}

// TestFailedTaskKeepsItsError checks what /result will answer for a task
// that fails: a catalogue error as it is, any other error as task_failed
// (errno 26) with a traceback, a panic as internal (errno 19) without the
// runner dying (the task after it still runs), each after one try, and an
// object store that refuses the result as dependency_down after the task's
// three tries, not a task left running.
func TestFailedTaskKeepsItsError(t *testing.T) {
	tests := []struct {
		name       string
		fail       func() error
		breakStore bool
		wantCode   apierr.Code
		wantTries  int
		traceback  bool
	}{
		{"catalogue error", func() error { return apierr.New(apierr.CorruptFile, "") }, false, apierr.CorruptFile, 1, false},
		{"plain error", func() error { return fmt.Errorf("gateway: task params: %w", io.ErrUnexpectedEOF) }, false, apierr.TaskFailed, 1, true},
		{"panic", func() error { panic("index out of range") }, false, apierr.Internal, 1, true},
		{"result not stored", func() error { return nil }, true, apierr.DependencyDown, 3, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			if tc.breakStore {
				// A file where the results folder belongs: every Put of a
				// result fails, as on a store that refuses writes.
				breakResults(t, e.dir)
			}
			q, _ := e.queue(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			tries := 0
			go q.Run(ctx, 1, func(_ context.Context, j Job, _ Progress) ([]byte, error) {
				if j.ID == "after" {
					return []byte(`{}`), nil
				}
				mu.Lock()
				tries++
				mu.Unlock()
				if err := tc.fail(); err != nil {
					return nil, err
				}
				return []byte(`{}`), nil
			})
			if err := q.Enqueue(ctx, Job{ID: "bad", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			want := apierr.Lookup(tc.wantCode)
			testutil.Eventually(t, 15*time.Second, func() error {
				st, _, _ := q.Get(ctx, "bad")
				if st.Status != Failed || st.Error == nil || st.Error.Errno != want.Errno || st.Error.Code != want.Status {
					return fmt.Errorf("state %s error %+v, want failed with errno %d (%s)", st.Status, st.Error, want.Errno, want.Name)
				}
				if (st.Error.Traceback != nil) != tc.traceback {
					return fmt.Errorf("traceback %v, want one: %v", st.Error.Traceback, tc.traceback)
				}
				return nil
			})
			mu.Lock()
			if tries != tc.wantTries {
				t.Errorf("tried %d times, want %d", tries, tc.wantTries)
			}
			mu.Unlock()
			if tc.breakStore {
				return
			}
			// The runner is still alive: the next task completes.
			if err := q.Enqueue(ctx, Job{ID: "after", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			testutil.Eventually(t, 5*time.Second, func() error {
				if st, _, _ := q.Get(ctx, "after"); st.Status != Done {
					return fmt.Errorf("next task %s, want done", st.Status)
				}
				return nil
			})
		})
	}
}

// breakResults puts a plain file where the store's results folder goes,
// so that storing any result fails.
func breakResults(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "results"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestResultRead checks what /result answers for a finished task as its
// stored body fares: the body itself; 404 task_not_found once it is gone
// (removed by the janitor); 503 dependency_down, not 500 internal, while
// the store cannot read it (here a folder where the body belongs).
func TestResultRead(t *testing.T) {
	tests := []struct {
		name     string
		damage   func(t *testing.T, path string)
		wantCode apierr.Code // "" for the body
	}{
		{"stored", func(*testing.T, string) {}, ""},
		{"removed", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, apierr.TaskNotFound},
		{"store failing", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(path, 0o750); err != nil {
				t.Fatal(err)
			}
		}, apierr.DependencyDown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			q, _ := e.queue(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go q.Run(ctx, 1, func(context.Context, Job, Progress) ([]byte, error) { return []byte(`{"ok":true}`), nil })
			if err := q.Enqueue(ctx, Job{ID: "fin", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			var st State
			testutil.Eventually(t, 5*time.Second, func() error {
				st, _, _ = q.Get(ctx, "fin")
				if st.Status != Done {
					return fmt.Errorf("state %s", st.Status)
				}
				return nil
			})
			tc.damage(t, filepath.Join(e.dir, st.ResultKey))
			body, err := q.Result(ctx, st)
			if tc.wantCode == "" {
				if err != nil || string(body) != `{"ok":true}` {
					t.Fatalf("result %s %v, want the stored body", body, err)
				}
				return
			}
			if got := apierr.As(err); err == nil || got.Code != tc.wantCode {
				t.Fatalf("result error %v, want %s", err, tc.wantCode)
			}
		})
	}
}

// A runner that dies mid-task (its connection drops, no ack) must not lose
// the task: another runner gets it after AckWait and it completes once.
func TestDeadRunnerTaskIsRedelivered(t *testing.T) {
	e := newEnv(t)
	q1, nc1 := e.queue(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	go q1.Run(ctx, 1, func(ctx context.Context, j Job, _ Progress) ([]byte, error) {
		close(started)
		<-ctx.Done() // hangs until its connection is gone
		return nil, ctx.Err()
	})
	if err := q1.Enqueue(ctx, Job{ID: "survivor", Priority: 1}, ""); err != nil {
		t.Fatal(err)
	}
	<-started
	nc1.Close() // the first runner's process dies

	q2, _ := e.queue(t)
	var mu sync.Mutex
	runs := 0
	go q2.Run(ctx, 1, func(context.Context, Job, Progress) ([]byte, error) {
		mu.Lock()
		runs++
		mu.Unlock()
		return []byte(`{}`), nil
	})
	testutil.Eventually(t, 10*time.Second, func() error {
		st, _, _ := q2.Get(ctx, "survivor")
		if st.Status != Done {
			return fmt.Errorf("state %s", st.Status)
		}
		return nil
	})
	time.Sleep(2 * e.opts.AckWait)
	mu.Lock()
	defer mu.Unlock()
	if runs != 1 {
		t.Errorf("task ran %d times on the second runner, want 1", runs)
	}
}

// TestInterruptedOnEveryTry checks a task whose runner dies (its gateway
// stops) on every delivery JetStream allows: it fails with task_failed
// (errno 26) and leaves the stream, where it stayed running until its
// record expired (202, then 404). A task interrupted once completes on
// the next runner.
func TestInterruptedOnEveryTry(t *testing.T) {
	tests := []struct {
		name      string
		dies      int // deliveries whose runner dies; the consumer allows MaxDeliver+1
		want      Status
		wantErrno int
	}{
		{"interrupted once", 1, Done, 0},
		{"interrupted every time", 2, Failed, apierr.Lookup(apierr.TaskFailed).Errno},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.opts.MaxDeliver = 1
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			q, _ := e.queue(t)
			if err := e.store.Put(ctx, InputPrefix("doomed")+"input", []byte("file")); err != nil {
				t.Fatal(err)
			}
			if err := q.Enqueue(ctx, Job{ID: "doomed", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			for range tc.dies {
				dyingRunner(t, e)
			}
			go q.Run(ctx, 1, func(context.Context, Job, Progress) ([]byte, error) { return []byte(`{}`), nil })
			testutil.Eventually(t, 15*time.Second, func() error {
				st, _, _ := q.Get(ctx, "doomed")
				if st.Status != tc.want || tc.want == Failed && (st.Error == nil || st.Error.Errno != tc.wantErrno || st.Error.Code != 500) {
					return fmt.Errorf("state %s error %+v, want %s errno %d", st.Status, st.Error, tc.want, tc.wantErrno)
				}
				info, err := q.stream.Info(ctx)
				if err != nil {
					return err
				}
				if info.State.Msgs != 0 {
					return fmt.Errorf("%d messages left in the task stream", info.State.Msgs)
				}
				if _, err := e.store.Get(ctx, InputPrefix("doomed")+"input"); !errors.Is(err, store.ErrNotFound) {
					return fmt.Errorf("input left: %v", err)
				}
				return nil
			})
		})
	}
}

// dyingRunner starts a runner on its own connection and closes that
// connection, as a gateway that stops does, once it has taken a task.
func dyingRunner(t *testing.T, e env) {
	t.Helper()
	q, nc := e.queue(t)
	started := make(chan struct{})
	var once sync.Once
	go q.Run(t.Context(), 1, func(ctx context.Context, _ Job, _ Progress) ([]byte, error) {
		once.Do(func() { close(started) })
		<-ctx.Done()
		return nil, ctx.Err()
	})
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the runner took no task")
	}
	nc.Close()
}

func TestUnknownAndExpired(t *testing.T) {
	e := newEnv(t)
	e.opts.TTL = 50 * time.Millisecond
	q, _ := e.queue(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, ok, err := q.Get(ctx, "0123456789abcdef0123456789abcdef"); ok || err != nil {
		t.Errorf("unknown task: ok=%v err=%v", ok, err)
	}
	go q.Run(ctx, 1, func(context.Context, Job, Progress) ([]byte, error) { return []byte(`{}`), nil })
	if err := q.Enqueue(ctx, Job{ID: "short", Priority: 1}, ""); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 5*time.Second, func() error {
		if _, ok, _ := q.Get(ctx, "short"); ok {
			return fmt.Errorf("still readable")
		}
		return nil
	})
}

// A task whose stage request a killed worker never answers runs into its
// timeout; it is tried once more and completes. A task that times out
// again fails with pipeline_timeout after that second try, not later.
func TestTimedOutTaskIsTriedOnceMore(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hangs     int // tries that hang until the task's timeout
		want      Status
		wantTries int
	}{
		{"a stranded stage request", 1, Done, 2},
		{"too slow every time", 5, Failed, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.opts.Timeout = 500 * time.Millisecond
			q, _ := e.queue(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var mu sync.Mutex
			tries := 0
			go q.Run(ctx, 1, func(ctx context.Context, _ Job, _ Progress) ([]byte, error) {
				mu.Lock()
				tries++
				n := tries
				mu.Unlock()
				if n <= tc.hangs {
					<-ctx.Done()
					return nil, apierr.Wrap(apierr.PipelineTimeout, ctx.Err(), "")
				}
				return []byte(`{}`), nil
			})
			if err := q.Enqueue(ctx, Job{ID: "slow", Priority: 1}, ""); err != nil {
				t.Fatal(err)
			}
			testutil.Eventually(t, 15*time.Second, func() error {
				st, _, _ := q.Get(ctx, "slow")
				if st.Status != tc.want {
					return fmt.Errorf("state %s", st.Status)
				}
				if tc.want == Failed && (st.Error == nil || st.Error.Errno != apierr.Lookup(apierr.PipelineTimeout).Errno) {
					return fmt.Errorf("error %+v, want pipeline_timeout", st.Error)
				}
				return nil
			})
			time.Sleep(3 * time.Second) // a further try would have come by now
			mu.Lock()
			defer mu.Unlock()
			if tries != tc.wantTries {
				t.Errorf("tried %d times, want %d", tries, tc.wantTries)
			}
		})
	}
}

// TestAnsweredIsKnownUntilTTL checks the record of a sync answer: read
// back as answered with its owner, and gone once the result TTL passes.
func TestAnsweredIsKnownUntilTTL(t *testing.T) {
	e := newEnv(t)
	e.opts.TTL = 300 * time.Millisecond
	q, _ := e.queue(t)
	ctx := context.Background()
	if err := q.RecordAnswered(ctx, "answered1", "classify", "owner-hash"); err != nil {
		t.Fatal(err)
	}
	st, ok, err := q.Get(ctx, "answered1")
	if err != nil || !ok || st.Status != Answered || st.Owner != "owner-hash" || st.Method != "classify" {
		t.Fatalf("read back %+v ok=%v err=%v, want answered classify of owner-hash", st, ok, err)
	}
	testutil.Eventually(t, 5*time.Second, func() error {
		if _, ok, _ := q.Get(ctx, "answered1"); ok {
			return fmt.Errorf("still known after the TTL")
		}
		return nil
	})
}
