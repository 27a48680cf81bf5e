package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
)

// TestCutShortUploadIsRefused: a multipart body that stops before its
// closing boundary (a client or proxy that sent part of the file and then
// ended the body, chunked or with a Content-Length to match) is refused as
// not_multipart, errno 13, the file incomplete. Go's multipart reader
// reports such a part's end as io.ErrUnexpectedEOF, which io.ReadFull
// turned into an ordinary end: the first half of the file was taken as
// the whole (a ten-page TIFF answered as five pages).
func TestCutShortUploadIsRefused(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	data := append(testJPEG(t), bytes.Repeat([]byte{0xAB}, 600<<10)...)
	whole, ct := imageBody(t, data)
	raw := whole.Bytes()
	closing := bytes.LastIndex(raw, []byte("\r\n--"))
	tests := []struct {
		name string
		body []byte
		want apierr.Code // "" for the file read whole
	}{
		{"whole", raw, ""},
		{"no closing boundary", raw[:closing], apierr.NotMultipart},
		{"cut in the first piece", raw[:3000], apierr.NotMultipart},
		{"cut past 256 KiB", raw[:300<<10], apierr.NotMultipart},
		{"closing boundary cut in two", raw[:closing+5], apierr.NotMultipart},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{cfg: config.Gateway{MinFileBytes: 1024, MaxFileBytes: 30 << 20}, uploadMem: newMemBudget(1 << 30)}
			c, _ := gin.CreateTestContext(httptest.NewRecorder())
			c.Request = httptest.NewRequest(http.MethodPost, "/pipelines/run/classify", bytes.NewReader(tc.body))
			c.Request.Header.Set("Content-Type", ct)
			up, err := s.readUpload(c, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if up.size != int64(len(data)) {
					t.Errorf("read %d bytes, want %d", up.size, len(data))
				}
				s.release(up)
			} else {
				var e *apierr.Error
				if !errors.As(err, &e) || e.Code != tc.want {
					size := int64(-1)
					if up != nil {
						size = up.size
					}
					t.Fatalf("error %v (file of %d bytes taken), want %s", err, size, tc.want)
				}
			}
			if left := s.uploadMem.left; left != 1<<30 {
				t.Errorf("%d bytes of the budget still reserved", 1<<30-left)
			}
		})
	}
}

// TestTricklersHoldWhatTheySent: an upload holds at most twice what it
// has sent, plus the first piece (4 KiB), of UPLOAD_MEMORY_BYTES. With
// every piece reserved at 256 KiB, a client that sent one byte held
// 256 KiB: 40 connections sending one byte each held 10 MiB of an 8 MiB
// budget, and a normal upload beside them was refused with 503.
func TestTricklersHoldWhatTheySent(t *testing.T) {
	const conns = 40
	data := append(testJPEG(t), bytes.Repeat([]byte{0}, 200<<10)...)
	const budget = 8 << 20
	body, ct := imageBody(t, data)
	raw := body.Bytes()
	start := bytes.Index(raw, []byte("\r\n\r\n")) + 4 // the file's first byte
	tests := []struct {
		name string
		sent int // bytes of the file each connection sends, then pauses
	}{
		{"one byte", 1},
		{"6000 bytes", 6000},
		{"100000 bytes", 100000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestGateway(t)
			s.cfg.MaxFileBytes = 1 << 20
			s.uploadMem = newMemBudget(budget)
			for range conns {
				conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				fmt.Fprintf(conn, "POST /pipelines/run/classify?async=true HTTP/1.1\r\nHost: gw\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", ct, len(raw))
				if _, err := conn.Write(raw[:start+tc.sent]); err != nil {
					t.Fatal(err)
				}
			}
			// Wait until every connection's bytes are read and the pieces
			// holding them reserved, or the budget is spent.
			limit := int64(conns * (2*tc.sent + firstPiece))
			cover := int64(conns * covering(tc.sent))
			deadline := time.Now().Add(10 * time.Second)
			for budget-left(s) < cover && left(s) >= readChunk && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if held := budget - left(s); held > limit {
				t.Errorf("%d connections that sent %d bytes each hold %d bytes of the budget, want at most %d", conns, tc.sent, held, limit)
			}
			if resp, out := postImageResp(t, srv.URL+"/pipelines/run/classify?async=true", data); resp.StatusCode != http.StatusOK {
				t.Errorf("an upload beside them: %d %v, want 200", resp.StatusCode, out)
			}
		})
	}
}

// covering is what an upload that has sent n bytes has reserved: the
// pieces holding them, and the next one when they fill their pieces
// exactly.
func covering(n int) int {
	total, piece := 0, firstPiece
	for total <= n {
		total += piece
		piece = min(2*piece, readChunk)
	}
	return total
}
