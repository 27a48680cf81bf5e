package gateway

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"docsuite/pkg/store"
)

// hangingStore is a store whose PutReader never ends before its context
// does: a MinIO that accepts the connection and stops answering.
type hangingStore struct{ store.Store }

func (hangingStore) PutReader(ctx context.Context, _ string, _ io.Reader, _ int64) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestStoringTheFileIsBounded: storing a request's file ends within
// PIPELINE_TIMEOUT, as every other write to the store does, answered 503
// dependency_down when it does not. It was bounded by nothing but its
// client's patience, so the janitor could not tell a write under way from
// one a killed gateway left (store.RemovePartial, whose cutoff is
// PIPELINE_TIMEOUT + COMPLETED_TASK_TTL_SECONDS back).
func TestStoringTheFileIsBounded(t *testing.T) {
	s, srv := newTestGateway(t)
	s.cfg.PipelineTimeout = 1
	s.store = hangingStore{s.store}
	client := &http.Client{Timeout: 10 * time.Second}
	start := time.Now()
	body, ct := imageBody(t, testJPEG(t))
	resp, err := client.Post(srv.URL+"/pipelines/run/classify?async=true", ct, body)
	if err != nil {
		t.Fatalf("no answer after %v: %v", time.Since(start), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%d %s, want 503 dependency_down", resp.StatusCode, b)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("answered after %v, want about PIPELINE_TIMEOUT (1 s)", took)
	}
}
