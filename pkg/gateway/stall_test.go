package gateway

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStalledUploadIsRefused sends a request whose upload stops half way
// and checks the gateway answers it once the upload has been idle for
// bodyIdle (422 errno 13, the message saying it stalled) instead of
// waiting for the rest for ever; an upload that keeps moving, slowly,
// is read whole.
func TestStalledUploadIsRefused(t *testing.T) {
	s, srv := newTestGateway(t)
	s.bodyIdle = 300 * time.Millisecond
	body, ct := imageBody(t, testJPEG(t))
	raw := body.Bytes()
	tests := []struct {
		name string
		// pause is the gap between chunks of 4 KB; stallAt, where
		// non-zero, is where the client stops sending.
		pause      time.Duration
		stallAt    int
		wantStatus int
		wantErrno  float64
		wantMsg    string
	}{
		{"stalled half way", 0, len(raw) / 2, http.StatusUnprocessableEntity, 13, "stalled: nothing was received for 0.3 s"},
		{"slow but moving", 150 * time.Millisecond, 0, http.StatusServiceUnavailable, 22, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /pipelines/run/classify HTTP/1.1\r\nHost: gw\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(raw))
			send := raw
			if tc.stallAt > 0 {
				send = raw[:tc.stallAt]
			}
			for off := 0; off < len(send); off += 4096 {
				if _, err := conn.Write(send[off:min(off+4096, len(send))]); err != nil {
					t.Fatal(err)
				}
				time.Sleep(tc.pause)
			}
			_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var e map[string]any
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatalf("%d %q is not JSON", resp.StatusCode, b)
			}
			if resp.StatusCode != tc.wantStatus || e["errno"] != tc.wantErrno {
				t.Fatalf("%d %s, want %d errno %v", resp.StatusCode, b, tc.wantStatus, tc.wantErrno)
			}
			if msg, _ := e["message"].(string); !strings.Contains(msg, tc.wantMsg) {
				t.Errorf("message %q does not say %q", msg, tc.wantMsg)
			}
		})
	}
}
