package topology

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestWorkerDeath measures what clients see when a classifier worker is
// killed (SIGKILL) while it holds requests: (a) running one, (b) several
// queued in it (WORKER_CONCURRENCY=1), (c) delivered to it but not yet
// read (the worker frozen by SIGSTOP first), with a second classifier
// started before the kill and with none. Every request must be answered
// within 45 s of its worker stopping (lost after 10 s of silence, up to
// 20 s for a replacement), not at PIPELINE_TIMEOUT (120 s): those of (c)
// were. Run with TOPOLOGY=1 and -run TestWorkerDeath (about 3 minutes).
func TestWorkerDeath(t *testing.T) {
	if os.Getenv("TOPOLOGY") == "" {
		t.Skip("set TOPOLOGY=1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{
		Root: repoRoot(t), Dir: t.TempDir(), Log: os.Stdout,
		Replicas: map[string]int{"gateway": 1, "classifier": 2, "license": 0, "ocr": 0, "fraud": 0, "janitor": 0},
		Env:      map[string]string{"LOGURU_LEVEL": "INFO", "DEV_ALLOW_NO_AVX512": "true", "TEXT_EVIDENCE": "false"},
		RoleEnv:  map[string]map[string]string{"classifier": {"WORKER_CONCURRENCY": "1"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	nc, err := nats.Connect(c.NATSURL, nats.UserInfo(c.NATSUser, c.NATSPassword))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	a := newAPI("http://" + c.Procs("gateway")[0].Addr)
	a.client.Timeout = 150 * time.Second
	first, second := c.Proc("classifier-1"), c.Proc("classifier-2")
	second.Kill()
	for _, sc := range []struct {
		name   string
		n      int
		frozen bool
		other  bool
	}{
		{"a running, other worker", 1, false, true},
		{"a running, no other", 1, false, false},
		{"b queued, other worker", 3, false, true},
		{"b queued, no other", 3, false, false},
		{"c not yet read, other worker", 2, true, true},
		{"c not yet read, no other", 2, true, false},
	} {
		if !first.Running() {
			if err := c.Restart(ctx, first); err != nil {
				t.Fatal(err)
			}
		}
		if second.Running() {
			second.Kill()
		}
		// Every classify request and whether its worker beat for it: every
		// inbox is heard from the start, so that no first beat is missed.
		var mu sync.Mutex
		alive := map[string]bool{}
		beaten := map[string]bool{}
		seen := 0
		sub, err := nc.Subscribe("docsuite.stage.classify", func(m *nats.Msg) {
			mu.Lock()
			defer mu.Unlock()
			seen++
			alive[m.Header.Get("Docsuite-Alive")] = true
		})
		if err != nil {
			t.Fatal(err)
		}
		inboxes, err := nc.Subscribe("_INBOX.>", func(m *nats.Msg) {
			mu.Lock()
			defer mu.Unlock()
			if len(m.Data) == 0 {
				beaten[m.Subject] = true
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		_ = nc.Flush()
		if sc.frozen {
			_ = syscall.Kill(first.Pid(), syscall.SIGSTOP)
		}
		type result struct {
			at   time.Time
			line string
		}
		out := make(chan result, sc.n)
		for i := range sc.n {
			go func() {
				r, err := a.postFile("/pipelines/run/classify?return_crops=false", "image", docJPEG(t, 800, 600, uint64(i+1)), nil)
				line := fmt.Sprint(err)
				if err == nil {
					line = fmt.Sprintf("%d errno=%d %.160s", r.status, r.errno(), r.raw)
				}
				out <- result{time.Now(), line}
			}()
		}
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			held := 0
			for inbox := range alive {
				if beaten[inbox] {
					held++
				}
			}
			ok := seen >= sc.n && (sc.frozen || held >= sc.n)
			mu.Unlock()
			if ok {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		// Unsubscribed before the kill: a subscriber of the subject would
		// keep a request sent again from answering "no responders".
		_ = sub.Unsubscribe()
		if !sc.frozen {
			// Held (running or queued): frozen now, killed below; its
			// beats stop here, as they do at a kill.
			_ = syscall.Kill(first.Pid(), syscall.SIGSTOP)
		}
		stopped := time.Now()
		time.Sleep(300 * time.Millisecond)
		if sc.other {
			if err := c.Restart(ctx, second); err != nil {
				t.Fatal(err)
			}
		}
		killed := time.Now()
		first.Kill()
		for range sc.n {
			r := <-out
			fmt.Printf("worker-death: %-30s %6.1fs after the worker stopped (%5.1fs after the kill): %s\n",
				sc.name, r.at.Sub(stopped).Seconds(), r.at.Sub(killed).Seconds(), r.line)
			if took := r.at.Sub(stopped); took > 45*time.Second {
				t.Errorf("%s: answered %.0fs after its worker stopped, want within 45 s", sc.name, took.Seconds())
			}
		}
		_ = inboxes.Unsubscribe()
	}
}
