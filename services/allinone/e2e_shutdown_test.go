package main

import (
	"io"
	"net/http"
	"testing"
)

// TestShutdownAnswersRequestsInFlight stops the all-in-one, as SIGTERM
// does, while classify requests are running: each must still be answered
// 200 with its documents, and the process stop once they are (the stage
// workers used to stop with the gateway, and the requests in flight failed
// with 503 dependency_down or waited out their timeout).
func TestShutdownAnswersRequestsInFlight(t *testing.T) {
	in := startAllInOne(t, nil)
	const n = 6
	page := scanJPEG(t, 1600, 1200)
	type answer struct {
		status int
		body   string
		err    error
	}
	answers := make(chan answer, n)
	for range n {
		go func() {
			resp, err := in.send("/pipelines/run/classify", "image", page)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			answers <- answer{status: resp.StatusCode, body: string(b)}
		}()
	}
	// Once one is answered the others are in the pipeline, on 2 cores
	// about a second behind it each.
	first := <-answers
	stopped := make(chan error, 1)
	go func() { stopped <- in.stop() }()
	got := []answer{first}
	for range n - 1 {
		got = append(got, <-answers)
	}
	if err := <-stopped; err != nil {
		t.Errorf("stop: %v", err)
	}
	for i, a := range got {
		if a.err != nil || a.status != http.StatusOK {
			body := a.body
			if len(body) > 300 {
				body = body[:300]
			}
			t.Errorf("request %d of %d (stopped after the first answer): %v %d %s", i+1, n, a.err, a.status, body)
		}
	}
}
