package gateway

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTricklingUploadsAreBounded checks UPLOAD_MEMORY_BYTES: while one
// client has sent half of a large file and pauses, another whose file
// would take the memory past the budget is refused at once with 503
// overloaded (errno 21) and Retry-After, instead of being buffered;
// the first upload, once finished, is accepted, and every byte reserved
// is given back, so the second client's retry is accepted too.
func TestTricklingUploadsAreBounded(t *testing.T) {
	s, srv := newTestGateway(t)
	data := append(testJPEG(t), bytes.Repeat([]byte{0}, 1<<20)...)
	s.cfg.MaxFileBytes = int64(len(data))
	budget := s.cfg.MaxFileBytes * 3 / 2
	s.uploadMem = newMemBudget(budget)
	url := srv.URL + "/pipelines/run/classify?async=true"

	body, ct := imageBody(t, data)
	raw := body.Bytes()
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /pipelines/run/classify?async=true HTTP/1.1\r\nHost: gw\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(raw))
	if _, err := conn.Write(raw[:len(raw)*3/4]); err != nil {
		t.Fatal(err)
	}
	// Wait until the server has reserved what it read of the first file.
	deadline := time.Now().Add(10 * time.Second)
	for left(s) > budget-s.cfg.MaxFileBytes/2 {
		if time.Now().After(deadline) {
			t.Fatalf("the first upload holds %d bytes, want at least %d", budget-left(s), s.cfg.MaxFileBytes/2)
		}
		time.Sleep(10 * time.Millisecond)
	}

	resp, out := postImageResp(t, url, data)
	if resp.StatusCode != http.StatusServiceUnavailable || out["errno"] != float64(21) {
		t.Fatalf("second upload beside the paused one: %d %v, want 503 errno 21", resp.StatusCode, out)
	}
	if resp.Header.Get("Retry-After") == "" {
		t.Errorf("503 without Retry-After")
	}
	if msg, _ := out["message"].(string); !strings.Contains(msg, "UPLOAD_MEMORY_BYTES") {
		t.Errorf("message %q does not name UPLOAD_MEMORY_BYTES", msg)
	}

	if _, err := conn.Write(raw[len(raw)*3/4:]); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	first, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to the first upload: %v", err)
	}
	b, _ := io.ReadAll(first.Body)
	first.Body.Close()
	var acc map[string]any
	if err := json.Unmarshal(b, &acc); err != nil || first.StatusCode != http.StatusOK || acc["task_id"] == nil {
		t.Fatalf("first upload: %d %s, want 200 with a task_id", first.StatusCode, b)
	}
	if got := left(s); got != budget {
		t.Errorf("after both requests %d of %d bytes are left: reservations leaked", got, budget)
	}
	if resp, out := postImageResp(t, url, data); resp.StatusCode != http.StatusOK {
		t.Errorf("the retry: %d %v, want 200", resp.StatusCode, out)
	}
	if got := left(s); got != budget {
		t.Errorf("after the retry %d of %d bytes are left", got, budget)
	}
}

// left reads the budget's remaining bytes.
func left(s *Server) int64 {
	s.uploadMem.mu.Lock()
	defer s.uploadMem.mu.Unlock()
	return s.uploadMem.left
}

// TestReadHeldGivesBackOnError checks that an upload failing part way
// (the budget spent) keeps nothing reserved, and that a file read whole
// holds less than a piece more than its size, its bytes as sent.
func TestReadHeldGivesBackOnError(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		limit   int64
		budget  int64
		wantErr error
	}{
		{"fits", 300 << 10, 1 << 20, 4 << 20, nil},
		{"a whole number of pieces", 2 * readChunk, 1 << 20, 4 << 20, nil},
		{"over the limit is read to limit+1", 2 << 20, 1 << 20, 4 << 20, nil},
		{"budget spent", 300 << 10, 1 << 20, 200 << 10, errBudget},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := make([]byte, tc.size)
			for i := range in {
				in[i] = byte(i * 7 % 251)
			}
			b := newMemBudget(tc.budget)
			data, size, held, err := readHeld(bytes.NewReader(in), tc.limit, b)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				if b.left != tc.budget || held != 0 {
					t.Errorf("after the error %d of %d left, %d held", b.left, tc.budget, held)
				}
				return
			}
			want := min(int64(tc.size), tc.limit+1)
			if size != want {
				t.Fatalf("read %d bytes, want %d", size, want)
			}
			got := make([]byte, size)
			if _, err := io.NewSectionReader(data, 0, size).ReadAt(got, 0); err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			if !bytes.Equal(got, in[:want]) {
				t.Error("the pieces do not read back as the bytes sent")
			}
			if held < size || held-size >= readChunk || b.left != tc.budget-held {
				t.Errorf("held %d for %d bytes, %d of %d left", held, size, b.left, tc.budget)
			}
		})
	}
}
