package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"docsuite/pkg/bus"
	"docsuite/pkg/stages"
	"docsuite/pkg/tasks"
)

// TestUnreadAnswerIsCut sends a synchronous fulltext request whose answer
// (3 MB, from a stand-in ocr worker) is far larger than the sockets'
// buffers, over a real TCP connection whose client reads it at various
// paces, with answers bounded at 1 MB a second over every 300 ms:
//   - a client that never reads, or reads below the rate, is cut within a
//     few idle periods: the handler returns, its MAX_INFLIGHT slot is
//     free, the connection is closed before the answer's end and the cut
//     is logged with the request's id. The handler used to stay blocked
//     in its write, holding the slot, for as long as the client kept the
//     connection open;
//   - a client that reads above the rate gets the whole answer.
func TestUnreadAnswerIsCut(t *testing.T) {
	const idle = 300 * time.Millisecond
	text := strings.Repeat("lorem ipsum ", 250_000)
	tests := []struct {
		name string
		// rate is the bytes a second the client reads; 0: none.
		rate    int
		wantCut bool
	}{
		{"never read", 0, true},
		{"read below the rate", 300 << 10, true},
		{"read above the rate", 3 << 20, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, addr, logs := newPacedGateway(t, idle, 1<<20)
			serveFulltext(t, s, text, 0)
			conn := dialSmall(t, addr)
			id := fmt.Sprintf("pace-%d", tc.rate)
			sendFulltext(t, conn, id, false)
			got := make(chan readAnswer, 1)
			if tc.rate > 0 {
				go func() { got <- readPaced(conn, tc.rate) }()
			}
			took := awaitHandler(t, s, "/pipelines/run/fulltext", 15*time.Second)
			if n := len(s.inflight); n != 0 {
				t.Errorf("%d synchronous slots still taken once the handler returned", n)
			}
			logged := strings.Contains(logs.String(), "client did not read its answer")
			wantCut := 0.0
			if tc.wantCut {
				wantCut = 1
			}
			if cut := testutil.ToFloat64(s.metrics.answersCut.WithLabelValues("/pipelines/run/fulltext")); cut != wantCut {
				t.Errorf("docsuite_http_answers_cut_total %v, want %v", cut, wantCut)
			}
			if !tc.wantCut {
				a := <-got
				if logged {
					t.Errorf("a client reading above the rate was logged as cut: %s", logs)
				}
				var body struct{ Text string }
				if err := json.Unmarshal(a.body, &body); a.err != nil || err != nil || a.status != http.StatusOK || body.Text != text {
					t.Fatalf("%d, %d bytes read (%v), want the whole 200 answer", a.status, len(a.body), a.err)
				}
				return
			}
			if took > 10*idle {
				t.Errorf("handler returned after %v, want within a few %v", took, idle)
			}
			if !logged || !strings.Contains(logs.String(), "request_id="+id) {
				t.Errorf("cut not logged with its request id: %s", logs)
			}
			if tc.rate == 0 {
				go func() { got <- readPaced(conn, 1<<30) }()
			}
			if a := <-got; a.err == nil {
				t.Errorf("%d, %d bytes read whole, want the connection closed before the answer's end", a.status, len(a.body))
			}
			t.Logf("handler returned after %v", took.Round(time.Millisecond))
		})
	}
}

// TestAnswerDeadlineBetweenRequests runs requests one after another on one
// kept-alive connection, each after a pause longer than the answers'
// idle period, so that a write deadline left by the previous answer
// (boundWrites bounds the end of each; net/http clears it) would have
// passed: a page is answered; an upload sent with Expect:
// 100-continue gets its 100 Continue and, from a pipeline that takes
// longer than the idle period before it answers, its answer; net/http's
// own answer to a malformed request (400, made JSON by jsonErrListener)
// is sent, not cut before its first byte.
func TestAnswerDeadlineBetweenRequests(t *testing.T) {
	const idle = 300 * time.Millisecond
	s, addr, logs := newPacedGateway(t, idle, 1<<20)
	serveFulltext(t, s, "short", 2*idle)
	conn := dialSmall(t, addr)
	br := bufio.NewReader(conn)
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	answer := func(step string) (*http.Response, []byte) {
		t.Helper()
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: no answer: %v", step, err)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("%s: answer cut: %v", step, err)
		}
		return resp, b
	}

	fmt.Fprint(conn, "GET /docs HTTP/1.1\r\nHost: gw\r\n\r\n")
	if resp, b := answer("first page"); resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte("swagger-ui")) {
		t.Fatalf("first page: %d %.100q", resp.StatusCode, b)
	}

	time.Sleep(3 * idle)
	sendFulltext(t, conn, "continued", true)
	if resp, b := answer("upload with Expect: 100-continue after a pause"); resp.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"short"`)) {
		t.Fatalf("upload after a pause: %d %.200q", resp.StatusCode, b)
	}

	time.Sleep(3 * idle)
	fmt.Fprint(conn, "GET /docs HTTP/1.1\r\n\r\n") // no Host
	resp, b := answer("malformed request after a pause")
	var e map[string]any
	if err := json.Unmarshal(b, &e); err != nil || resp.StatusCode != http.StatusBadRequest || e["errno"] != 27.0 {
		t.Fatalf("malformed request: %d %.200q, want 400 errno 27", resp.StatusCode, b)
	}
	if strings.Contains(logs.String(), "client did not read its answer") {
		t.Errorf("an answer read whole was logged as cut: %s", logs)
	}
}

// readAnswer is what readPaced read of an answer.
type readAnswer struct {
	status int
	body   []byte
	err    error
}

// readPaced reads one answer from conn at rate bytes a second.
func readPaced(conn net.Conn, rate int) readAnswer {
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(&pacedReader{r: conn, rate: rate}), nil)
	if err != nil {
		return readAnswer{err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return readAnswer{resp.StatusCode, b, err}
}

// pacedReader reads at rate bytes a second: it waits after each read for
// as long as the bytes it returned take at that rate.
type pacedReader struct {
	r    io.Reader
	rate int
}

func (p *pacedReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	time.Sleep(time.Duration(n) * time.Second / time.Duration(p.rate))
	return n, err
}

// newPacedGateway serves a test gateway as Serve does (httpServer, JSON
// errors of net/http), its answers bounded at minRate bytes a second over
// every idle, on a loopback listener whose connections have a send buffer
// of 64 KiB (doubled by Linux), so that an answer of a few megabytes does
// not fit in it whatever the host's autotuning allows. It returns the
// server, its address and its log.
func newPacedGateway(t *testing.T, idle time.Duration, minRate int64) (*Server, string, *syncBuffer) {
	t.Helper()
	s, _ := newTestGateway(t)
	s.answerIdle, s.answerMinRate = idle, minRate
	logs := &syncBuffer{}
	s.log = slog.New(slog.NewTextHandler(logs, nil))
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 64<<10) })
	}}
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := s.httpServer()
	go func() { _ = hs.Serve(jsonErrListener{ln}) }()
	t.Cleanup(func() { _ = hs.Close() })
	return s, ln.Addr().String(), logs
}

// dialSmall connects to addr with a receive buffer of 4 KiB (doubled by
// Linux), so that what the client leaves unread holds the server back.
func dialSmall(t *testing.T, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	conn, err := d.DialContext(t.Context(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// serveFulltext stands in for the ocr worker: after delay it answers every
// fulltext request with text, its body stored as a large answer is.
func serveFulltext(t *testing.T, s *Server, text string, delay time.Duration) {
	t.Helper()
	w, err := bus.Serve(s.nc, stages.MethodStage(methodFulltext), bus.ServeOptions{Concurrency: 4, Timeout: 5 * time.Second,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
		func(ctx context.Context, req stages.MethodRequest) (stages.MethodReply, error) {
			time.Sleep(delay)
			body, err := json.Marshal(map[string]string{"task_id": req.TaskID, "text": text})
			if err != nil {
				return stages.MethodReply{}, err
			}
			key := tasks.InputPrefix(req.TaskID) + "fulltext.json"
			if err := s.store.Put(ctx, key, body); err != nil {
				return stages.MethodReply{}, err
			}
			return stages.MethodReply{BodyKey: key}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
}

// sendFulltext writes a synchronous fulltext request of an image to conn;
// with expect, it sends its head with Expect: 100-continue and its body
// once the 100 Continue has come.
func sendFulltext(t *testing.T, conn net.Conn, requestID string, expect bool) {
	t.Helper()
	body, ct := imageBody(t, testJPEG(t))
	head := fmt.Sprintf("POST /pipelines/run/fulltext HTTP/1.1\r\nHost: gw\r\nX-Request-Id: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n", requestID, ct, body.Len())
	if !expect {
		fmt.Fprintf(conn, "%s\r\n%s", head, body.Bytes())
		return
	}
	fmt.Fprintf(conn, "%sExpect: 100-continue\r\n\r\n", head)
	want := "HTTP/1.1 100 Continue\r\n\r\n"
	got := make([]byte, len(want))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(conn, got); err != nil || string(got) != want {
		t.Fatalf("no 100 Continue: %q %v", got, err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := conn.Write(body.Bytes()); err != nil {
		t.Fatal(err)
	}
}

// awaitHandler waits until a request of route has been answered (its
// handler returned) and says how long that took; it fails the test after
// giveUp.
func awaitHandler(t *testing.T, s *Server, route string, giveUp time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < giveUp {
		for _, status := range []string{"200", "499"} {
			if testutil.ToFloat64(s.metrics.requests.WithLabelValues(route, status)) > 0 {
				return time.Since(start)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s: handler still running after %v (%d synchronous slots taken)", route, giveUp, len(s.inflight))
	return 0
}

// String returns what was written, leaving it (see take).
func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
