package testutil

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestWaitReady checks the three ways waiting for MinIO ends: it answers
// ready, its process ends first (so StartMinio starts it again on other
// ports instead of waiting out the timeout), or the timeout passes.
func TestWaitReady(t *testing.T) {
	ready := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/minio/health/ready" {
			http.NotFound(w, r)
		}
	}))
	defer ready.Close()
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	ended := make(chan struct{})
	close(ended)
	for _, c := range []struct {
		name     string
		endpoint string
		exited   <-chan struct{}
		want     error
		wantText string
	}{
		{"ready", strings.TrimPrefix(ready.URL, "http://"), make(chan struct{}), nil, ""},
		{"process ended", "127.0.0.1:1", ended, errExited, ""},
		{"never ready", strings.TrimPrefix(busy.URL, "http://"), make(chan struct{}), nil, "status 503"},
	} {
		t.Run(c.name, func(t *testing.T) {
			timeout := 10 * time.Second
			if c.wantText != "" {
				timeout = 500 * time.Millisecond
			}
			err := waitReady(&MinioServer{Endpoint: c.endpoint}, c.exited, timeout)
			switch {
			case c.wantText != "":
				if err == nil || !strings.Contains(err.Error(), c.wantText) {
					t.Errorf("err %v, want one saying %q", err, c.wantText)
				}
			case !errors.Is(err, c.want) && err != c.want:
				t.Errorf("err %v, want %v", err, c.want)
			}
		})
	}
}
