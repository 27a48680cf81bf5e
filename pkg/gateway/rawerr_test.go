package gateway

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServerOwnErrorsAreJSON sends requests net/http refuses before any
// handler runs, over the gateway's listener: each must come back as the
// API's JSON error (400, errno 27) instead of net/http's plain text, and
// a request the handler answers must pass untouched.
func TestServerOwnErrorsAreJSON(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "handled")
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(jsonErrListener{ln}) }()
	t.Cleanup(func() { _ = srv.Close() })

	tests := []struct {
		name     string
		request  string
		wantJSON bool
		wantMsg  string // in detail[0].msg, or the body when not JSON
	}{
		{"headers over the limit", "GET / HTTP/1.1\r\nHost: gw\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n", true, "431 Request Header Fields Too Large"},
		{"malformed request line", "GARBAGE\r\n\r\n", true, "400 Bad Request"},
		{"no Host header", "GET / HTTP/1.1\r\n\r\n", true, "missing required Host header"},
		{"unknown transfer encoding", "POST / HTTP/1.1\r\nHost: gw\r\nTransfer-Encoding: zip\r\n\r\n", true, "501 Not Implemented"},
		{"a request the handler answers", "GET / HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n", false, "handled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
			go func() { _, _ = io.WriteString(conn, tc.request) }()
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if !tc.wantJSON {
				if resp.StatusCode != http.StatusOK || string(body) != tc.wantMsg {
					t.Fatalf("%d %q, want 200 %q", resp.StatusCode, body, tc.wantMsg)
				}
				return
			}
			var e struct {
				Code   int `json:"code"`
				Errno  int `json:"errno"`
				Detail []struct {
					Msg string `json:"msg"`
				} `json:"detail"`
			}
			if err := json.Unmarshal(body, &e); err != nil || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%d %s %q is not JSON", resp.StatusCode, resp.Header.Get("Content-Type"), body)
			}
			if resp.StatusCode != http.StatusBadRequest || e.Code != 400 || e.Errno != 27 {
				t.Errorf("%d %s, want 400 errno 27", resp.StatusCode, body)
			}
			if len(e.Detail) != 1 || !strings.Contains(e.Detail[0].Msg, tc.wantMsg) {
				t.Errorf("detail %s does not say %q", body, tc.wantMsg)
			}
		})
	}
}
