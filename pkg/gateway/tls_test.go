package gateway

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/certfile"
	"docsuite/pkg/testutil"
)

// TestTLSListener: over the HTTPS listener a handler's answer passes, and
// net/http's own errors are still the API's JSON; plain HTTP sent to it is
// answered with the JSON 400 that says to use https://, in plain text; TLS
// 1.1 is refused.
func TestTLSListener(t *testing.T) {
	pair := testutil.WriteTLSPair(t, t.TempDir(), "gateway")
	certs, err := certfile.Open(pair.CertFile, pair.KeyFile, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "handled")
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(tlsListener{Listener: ln, cfg: certs.ServerConfig()}) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()
	clientTLS := &tls.Config{RootCAs: pair.Pool, ServerName: "localhost"}

	exchange := func(t *testing.T, conn net.Conn, request string) (*http.Response, string) {
		t.Helper()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		go func() { _, _ = io.WriteString(conn, request) }()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	jsonDetail := func(t *testing.T, resp *http.Response, body string) string {
		t.Helper()
		var env struct {
			Code, Errno int
			Detail      []struct{ Msg string }
		}
		if err := json.Unmarshal([]byte(body), &env); err != nil || resp.StatusCode != 400 || env.Code != 400 || env.Errno != 27 || len(env.Detail) != 1 {
			t.Fatalf("%d %q, want the JSON 400 (errno 27)", resp.StatusCode, body)
		}
		return env.Detail[0].Msg
	}

	t.Run("a request over HTTPS", func(t *testing.T) {
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: clientTLS}}
		resp, err := c.Get("https://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || string(body) != "handled" || resp.Proto != "HTTP/1.1" {
			t.Fatalf("%s %d %q", resp.Proto, resp.StatusCode, body)
		}
	})
	t.Run("net/http's own error over HTTPS", func(t *testing.T) {
		conn, err := tls.Dial("tcp", addr, clientTLS)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		resp, body := exchange(t, conn, "GARBAGE\r\n\r\n")
		if msg := jsonDetail(t, resp, body); msg != "400 Bad Request" {
			t.Fatalf("detail %q", msg)
		}
	})
	t.Run("plain HTTP", func(t *testing.T) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		resp, body := exchange(t, conn, "POST /pipelines/run/classify HTTP/1.1\r\nHost: gw\r\nContent-Length: 0\r\n\r\n")
		if msg := jsonDetail(t, resp, body); !strings.Contains(msg, "use https://") {
			t.Fatalf("detail %q", msg)
		}
	})
	t.Run("TLS 1.1", func(t *testing.T) {
		old := clientTLS.Clone()
		old.MinVersion, old.MaxVersion = tls.VersionTLS11, tls.VersionTLS11
		if conn, err := tls.Dial("tcp", addr, old); err == nil {
			conn.Close()
			t.Fatal("TLS 1.1 handshake succeeded")
		}
	})
}
