package gateway

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
)

// TestFailNamesTheCause checks how a failed request is answered and
// logged: a client that went away is neither an error nor the message
// bus's fault, a worker missing is.
func TestFailNamesTheCause(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	tests := []struct {
		name       string
		clientGone bool
		err        error
		wantStatus int
		wantLog    string
		wantNot    string
	}{
		{"client closed the request", true, fmt.Errorf("bus: orient request: %w", context.Canceled),
			499, "level=INFO msg=\"client closed the request before its answer\"", "level=ERROR"},
		{"no worker", false, apierr.Wrap(apierr.DependencyDown, fmt.Errorf("no responders"), "No orient worker is running"),
			http.StatusServiceUnavailable, "level=ERROR msg=\"request failed\"", "client closed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			s := &Server{log: slog.New(slog.NewTextHandler(&logs, nil))}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.clientGone {
				cancel()
			}
			w := httptest.NewRecorder()
			c, _ := gin.CreateTestContext(w)
			c.Request = httptest.NewRequest(http.MethodPost, "/pipelines/run/classify", nil).WithContext(ctx)
			s.fail(c, tc.err)
			if w.Code != tc.wantStatus {
				t.Errorf("status %d, want %d", w.Code, tc.wantStatus)
			}
			if !strings.Contains(logs.String(), tc.wantLog) || strings.Contains(logs.String(), tc.wantNot) {
				t.Errorf("log %q: want %q, not %q", logs.String(), tc.wantLog, tc.wantNot)
			}
		})
	}
}

// TestFailLogNamesTaskAndRequest: a 5xx's ERROR line said only path, code
// and cause; nginx's access log line of the same request has its
// request_id (passed to the gateway as X-Request-Id) and the answer its
// task_id, and neither could be found in the gateway's log.
func TestFailLogNamesTaskAndRequest(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	var logs bytes.Buffer
	s := &Server{log: slog.New(slog.NewJSONHandler(&logs, nil))}
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(http.MethodPost, "/pipelines/run/classify", nil)
	c.Request.Header.Set("X-Request-Id", "0123abcd-req")
	c.Set(taskIDKey, "2ef7f4bae22d46cc83d0a3ffe76f8a91")
	s.fail(c, apierr.New(apierr.PipelineTimeout, ""))
	for _, want := range []string{`"task_id":"2ef7f4bae22d46cc83d0a3ffe76f8a91"`, `"request_id":"0123abcd-req"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log %s: want %s", logs.String(), want)
		}
	}
	logs.Reset()
	c.Request.Header.Set("X-Request-Id", "evil\"\nid")
	s.fail(c, apierr.New(apierr.PipelineTimeout, ""))
	if !strings.Contains(logs.String(), `"request_id":""`) {
		t.Errorf("an id with odd characters reached the log: %s", logs.String())
	}
}
