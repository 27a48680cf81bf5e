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

// TestTricklingBodyIsCut sends request bodies a byte at a time, every
// 50 ms (20 bytes a second), over a real TCP connection, and checks the
// gateway answers within a few bodyIdle instead of reading for as long as
// the client goes on:
//   - an upload far below UPLOAD_MIN_RATE (1 KiB a second) is answered 422
//     (errno 13, "too slow") once it has sent less than its due for one
//     bodyIdle: the read deadline was renewed before every read, and a
//     body trickled at a byte a second held its connection and its share
//     of UPLOAD_MEMORY_BYTES for as long as it lasted (a 30 MB file: a
//     year);
//   - a chunked body of a request refused before its body was read (here
//     a wrong Content-Type) gets its answer once bodyIdle has passed:
//     net/http read up to 256 KiB of it, with no deadline, before writing
//     the answer (three days at a byte a second).
//
// The slow upload of TestStalledUploadIsRefused, above the rate, is still
// read whole.
func TestTricklingBodyIsCut(t *testing.T) {
	s, srv := newTestGateway(t)
	s.bodyIdle = 300 * time.Millisecond // UPLOAD_MIN_RATE: 307 bytes due every 300 ms
	body, ct := imageBody(t, testJPEG(t))
	raw := body.Bytes()
	tests := []struct {
		name    string
		head    string
		chunked bool
		wantMsg string
	}{
		{"upload below the rate", fmt.Sprintf("Content-Type: %s\r\nContent-Length: %d", ct, len(raw)), false,
			"bytes were received in 0.3 s, at least 307 (UPLOAD_MIN_RATE=1024 a second)"},
		{"body of a refused request", "Content-Type: text/plain\r\nTransfer-Encoding: chunked", true,
			"multipart/form-data"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /pipelines/run/classify HTTP/1.1\r\nHost: gw\r\n%s\r\n\r\n", tc.head)
			resp, sent, took := trickle(t, conn, raw, tc.chunked, 5*time.Second)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var e map[string]any
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatalf("%d %q is not JSON", resp.StatusCode, b)
			}
			if resp.StatusCode != http.StatusUnprocessableEntity || e["errno"] != 13.0 {
				t.Fatalf("%d %s, want 422 errno 13", resp.StatusCode, b)
			}
			if msg, _ := e["message"].(string); !strings.Contains(msg, tc.wantMsg) {
				t.Errorf("message %q does not say %q", msg, tc.wantMsg)
			}
			t.Logf("answered after %v, %d bytes sent", took.Round(time.Millisecond), sent)
		})
	}
}

// trickle writes body to conn a byte every 50 ms (a chunk of one byte
// each where chunked) until the server answers, and returns the answer,
// the bytes sent and the time it took; it fails the test when giveUp
// passes first, or the connection closes without an answer.
func trickle(t *testing.T, conn net.Conn, body []byte, chunked bool, giveUp time.Duration) (*http.Response, int, time.Duration) {
	t.Helper()
	type answer struct {
		resp *http.Response
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		answered <- answer{resp, err}
	}()
	start := time.Now()
	for i := 0; ; i++ {
		select {
		case a := <-answered:
			if a.err != nil {
				t.Fatalf("connection closed without an answer after %v: %v", time.Since(start), a.err)
			}
			return a.resp, i, time.Since(start)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Since(start) > giveUp || i == len(body) {
			t.Fatalf("no answer after %v of trickling (%d bytes sent): the body holds its connection", time.Since(start), i)
		}
		b := body[i : i+1]
		if chunked {
			b = []byte("1\r\n" + string(b) + "\r\n")
		}
		if _, err := conn.Write(b); err != nil {
			t.Fatalf("write after %v: %v", time.Since(start), err)
		}
	}
}
