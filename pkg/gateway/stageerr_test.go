package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"docsuite/pkg/bus"
	"docsuite/pkg/stages"
)

// TestStageErrorSyncAndAsync checks that a crop worker's failure is
// answered alike by a synchronous request and by /result of the same
// request sent async: a plain error or a panic in the worker crosses the
// bus as internal (500, errno 19, its cause in the traceback) and the task
// keeps that catalogue error, as the sync path answers it; neither is
// task_failed (errno 26), which is left to failures of the gateway's own
// (docs/api.md, Async).
func TestStageErrorSyncAndAsync(t *testing.T) {
	tests := []struct {
		name string
		fail func() error
	}{
		{"plain error", func() error { return errors.New("cropper: decode page: unexpected EOF") }},
		{"panic", func() error { panic("index out of range") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestGateway(t)
			w, err := bus.Serve(s.nc, stages.Crop, bus.ServeOptions{Concurrency: 1, Timeout: 5 * time.Second,
				Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
				func(context.Context, stages.CropRequest) (stages.CropReply, error) {
					return stages.CropReply{}, tc.fail()
				})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = w.Stop() })
			status, sync := postImage(t, srv.URL+"/pipelines/run/classify", testJPEG(t))
			status2, accepted := postImage(t, srv.URL+"/pipelines/run/classify?async=true", testJPEG(t))
			id, _ := accepted["task_id"].(string)
			if status2 != http.StatusOK || id == "" {
				t.Fatalf("async classify: %d %v", status2, accepted)
			}
			go func() { _ = s.RunTasks(t.Context()) }()
			resp, raw := awaitResult(t, srv.URL, id)
			var async map[string]any
			if err := json.Unmarshal(raw, &async); err != nil {
				t.Fatalf("/result: %q is not JSON", raw)
			}
			if status != http.StatusInternalServerError || sync["errno"] != float64(19) {
				t.Errorf("sync: %d %v, want 500 errno 19", status, sync)
			}
			if resp.StatusCode != status || async["errno"] != sync["errno"] || async["message"] != sync["message"] {
				t.Errorf("/result: %d %v; the sync answer was %d %v", resp.StatusCode, async, status, sync)
			}
			if tb, _ := async["traceback"].(string); tb == "" {
				t.Errorf("/result: %v, want the worker's cause in the traceback", async)
			}
		})
	}
}
