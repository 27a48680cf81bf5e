package gateway

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"docsuite/pkg/tasks"
)

// TestMetricsShowSaturationAndBacklog: /metrics had request counts and
// latencies only; a gateway at MAX_INFLIGHT, or async tasks piling up
// with no runner taking them, showed nowhere until clients got 503s or
// waited. The in-flight requests, their limit and the queue's depth are
// series now.
func TestMetricsShowSaturationAndBacklog(t *testing.T) {
	s, ts := newTestGateway(t)
	s.inflight <- struct{}{}
	defer func() { <-s.inflight }()
	job := tasks.Job{ID: "0123456789abcdef0123456789abcdef", Method: methodClassify, InputKey: tasks.InputPrefix("0123456789abcdef0123456789abcdef") + "input"}
	if err := s.queue.Enqueue(context.Background(), job, ""); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{"docsuite_sync_inflight 1\n", "docsuite_sync_inflight_limit 64\n", "docsuite_async_queue_tasks 1\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
