package gateway

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"docsuite/pkg/bus"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
	"docsuite/pkg/tasks"
)

// TestCutShortRequestLeavesNothing: a synchronous request whose client
// leaves while the crop stage still works on it; the stage writes its
// crop after the gateway cleaned the task up, and that crop is removed
// too, once the stages' time has passed, not by the janitor an hour on.
func TestCutShortRequestLeavesNothing(t *testing.T) {
	s, srv := newTestGateway(t)
	s.lateCleanup = 1500 * time.Millisecond
	taskIDs := make(chan string, 1)
	w, err := bus.Serve(s.nc, stages.Crop, bus.ServeOptions{Concurrency: 1, Timeout: 5 * time.Second,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
		func(ctx context.Context, req stages.CropRequest) (stages.CropReply, error) {
			taskIDs <- req.TaskID
			time.Sleep(700 * time.Millisecond) // the client leaves meanwhile
			key := "tasks/" + req.TaskID + "/p0_d0.raw"
			if err := s.store.Put(context.Background(), key, make([]byte, 1<<16)); err != nil {
				return stages.CropReply{}, err
			}
			return stages.CropReply{PagesTotal: 1}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })

	body, ct := imageBody(t, testJPEG(t))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/pipelines/run/classify", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the request was answered (%d) before the client left", resp.StatusCode)
	}
	id := <-taskIDs
	left := func() []string {
		var keys []string
		if err := s.store.List(context.Background(), tasks.InputPrefix(id), func(o store.Object) bool {
			keys = append(keys, o.Key)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return keys
	}
	time.Sleep(900 * time.Millisecond) // the stage has written its crop
	if keys := left(); len(keys) == 0 {
		t.Fatal("the stage's late crop is not there: the test does not show the case")
	}
	deadline := time.Now().Add(3 * time.Second)
	for len(left()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("left behind: %v", left())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
