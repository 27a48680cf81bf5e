package topology

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadResult is what the load generator saw.
type loadResult struct {
	mu       sync.Mutex
	sent     int
	accepted map[string]time.Time // task id -> when accepted
	refused  map[string]int       // status (or error) -> count
}

func (l *loadResult) add(id string, refusal string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent++
	if refusal != "" {
		l.refused[refusal]++
		return
	}
	l.accepted[id] = time.Now()
}

// testKillUnderLoad sends async tasks at a steady rate through nginx,
// kills a classifier (of two) and a gateway (of two) with SIGKILL while
// they work, restarts each after 3 s as a restart policy would, and checks
// every accepted task completes exactly once.
func testKillUnderLoad(t *testing.T, c *Cluster, a *api, w *taskWatch) {
	rate := envInt("TOPOLOGY_RATE", 3)
	seconds := envInt("TOPOLOGY_LOAD_SECONDS", 24)
	victims := []string{"classifier-1", "gateway-1"}
	for _, v := range victims {
		if p := c.Proc(v); p == nil || !p.Running() {
			t.Fatalf("%s is not running", v)
		}
	}
	imgs := [][]byte{docJPEG(t, 1200, 900, 11), docJPEG(t, 1000, 1400, 12), docJPEG(t, 1600, 1200, 13)}
	res := &loadResult{accepted: map[string]time.Time{}, refused: map[string]int{}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
	defer cancel()

	var events []string
	var evMu sync.Mutex
	note := func(format string, args ...any) {
		evMu.Lock()
		defer evMu.Unlock()
		events = append(events, fmt.Sprintf("%5.1fs ", float64(time.Duration(seconds)*time.Second-time.Until(deadlineOf(ctx)))/1e9)+fmt.Sprintf(format, args...))
	}
	var chaos sync.WaitGroup
	for i, v := range victims {
		chaos.Go(func() {
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Duration(seconds) * time.Second * time.Duration(i+1) / 4):
			}
			p := c.Proc(v)
			note("SIGKILL %s (pid %d)", v, p.Pid())
			p.Kill()
			time.Sleep(3 * time.Second)
			rctx, rcancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer rcancel()
			if err := c.Restart(rctx, p); err != nil {
				t.Errorf("restart %s: %v", v, err)
				return
			}
			note("%s restarted and healthy (pid %d)", v, p.Pid())
		})
	}

	var senders sync.WaitGroup
	tick := time.NewTicker(time.Second / time.Duration(rate))
	n := 0
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
			n++
			img, prio := imgs[n%len(imgs)], 1+n%3
			senders.Go(func() {
				r, err := a.postFile(fmt.Sprintf("/pipelines/run/classify?async=true&priority=%d", prio), "image", img, nil)
				switch {
				case err != nil:
					res.add("", "error: "+shortErr(err))
				case r.status != http.StatusOK || !hex32.MatchString(fmt.Sprint(r.body["task_id"])):
					res.add("", fmt.Sprintf("HTTP %d errno %d", r.status, r.errno()))
				default:
					res.add(fmt.Sprint(r.body["task_id"]), "")
				}
			})
		}
	}
	tick.Stop()
	senders.Wait()
	chaos.Wait()
	loadEnd := time.Now()

	ids := make([]string, 0, len(res.accepted))
	for id := range res.accepted {
		ids = append(ids, id)
	}
	// A task on a killed gateway comes back after the JetStream ack wait
	// (30 s); one stranded on a killed worker fails or retries after
	// PIPELINE_TIMEOUT. Wait for both, with room for a redelivery.
	w.waitFinished(ids, time.Duration(3*pipelineTimeout+90)*time.Second)
	drain := time.Since(loadEnd)
	done, failed, slow := w.snapshot()

	var completed, failedN, lost, twice, redelivered int
	var lat []time.Duration
	failures := map[string]int{}
	for _, id := range ids {
		switch ev := done[id]; {
		case len(ev) > 0:
			completed++
			if len(ev) > 1 {
				twice++
			}
			if ev[0].attempts > 1 {
				redelivered++
			}
			lat = append(lat, ev[0].at.Sub(res.accepted[id]))
		case failed[id].ID != "":
			failedN++
			if e := failed[id].Error; e != nil {
				failures[fmt.Sprintf("%d errno %d %s", e.Code, e.Errno, e.Message)]++
			}
		default:
			lost++
		}
	}
	orphans := 0
	for id := range done {
		if _, ok := res.accepted[id]; !ok && !strings.HasPrefix(id, "_") {
			orphans++
		}
	}
	viaAPI := 0
	for _, id := range ids {
		if r, err := a.get("/result/" + id); err == nil && r.status == http.StatusOK && r.body["task_id"] == id {
			viaAPI++
		}
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(10 * time.Millisecond)
	}
	fmt.Printf("topology: load %d s at %d tasks/s through nginx; events:\n", seconds, rate)
	for _, e := range events {
		fmt.Printf("topology:   %s\n", e)
	}
	fmt.Printf("topology: tasks sent %d, accepted %d, refused at submit %d %v\n", res.sent, len(ids), res.sent-len(ids), sortedCounts(res.refused))
	fmt.Printf("topology: tasks completed %d, failed %d %v, lost %d, completed twice %d, redelivered %d, readable via /result %d\n",
		completed, failedN, sortedCounts(failures), lost, twice, redelivered, viaAPI)
	fmt.Printf("topology: accept-to-done p50 %v, p95 %v, max %v; drained %.1fs after the load; done tasks no client saw accepted: %d\n",
		pct(0.5), pct(0.95), pct(1), drain.Seconds(), orphans)
	if slow {
		t.Error("the task watcher fell behind (slow consumer): counts may be short")
	}
	if len(ids) == 0 {
		t.Fatal("no task accepted")
	}
	if lost != 0 || twice != 0 || failedN != 0 || completed != len(ids) {
		t.Errorf("every accepted task must complete exactly once: completed %d of %d, failed %d, lost %d, twice %d",
			completed, len(ids), failedN, lost, twice)
	}
}

func deadlineOf(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

func shortErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

func sortedCounts(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s: %d", k, v))
	}
	sort.Strings(out)
	return out
}
