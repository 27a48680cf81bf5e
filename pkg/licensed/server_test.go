package licensed

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/bus"
)

// answer is one scripted reply of the test's license server: an HTTP
// status and a body, or a dropped connection when status is 0.
type answer struct {
	status int
	body   string
}

// licenseServer is a real HTTPS peer of the protocol: it records every
// request and replies with its script, repeating the last answer.
type licenseServer struct {
	srv    *httptest.Server
	caFile string

	mu       sync.Mutex
	script   []answer
	requests []Request
	// skew, when not zero, is how far the server's clock is ahead of
	// this machine's: its Date header says so.
	skew time.Duration
}

func startLicenseServer(t *testing.T, script ...answer) *licenseServer {
	t.Helper()
	ls := &licenseServer{script: script}
	ls.srv = httptest.NewTLSServer(http.HandlerFunc(ls.serve))
	t.Cleanup(ls.srv.Close)
	ls.caFile = filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ls.srv.Certificate().Raw})
	if err := os.WriteFile(ls.caFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	return ls
}

func (ls *licenseServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed) // what the vendor's address answers to GET
		return
	}
	var req Request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ls.mu.Lock()
	ls.requests = append(ls.requests, req)
	skew := ls.skew
	a := answer{status: http.StatusInternalServerError}
	if len(ls.script) > 0 {
		a = ls.script[0]
		if len(ls.script) > 1 {
			ls.script = ls.script[1:]
		}
	}
	ls.mu.Unlock()
	if a.status == 0 {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if skew != 0 {
		w.Header().Set("Date", time.Now().Add(skew).UTC().Format(http.TimeFormat))
	}
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func (ls *licenseServer) setScript(script ...answer) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.script = script
}

func (ls *licenseServer) received() []Request {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return append([]Request(nil), ls.requests...)
}

// connectProxy is an HTTP CONNECT proxy: the daemon's only way out in
// installations that configure one.
type connectProxy struct {
	srv     *httptest.Server
	tunnels atomic.Int64
}

func startConnectProxy(t *testing.T) *connectProxy {
	t.Helper()
	p := &connectProxy{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		upstream, err := net.DialTimeout("tcp", r.Host, 5*time.Second)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		hj, ok := w.(http.Hijacker)
		if !ok {
			_ = upstream.Close()
			http.Error(w, "no hijack", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
		client, buf, err := hj.Hijack()
		if err != nil {
			_ = upstream.Close()
			return
		}
		p.tunnels.Add(1)
		go func() {
			defer upstream.Close()
			defer client.Close()
			go func() { _, _ = io.Copy(upstream, buf) }()
			_, _ = io.Copy(client, upstream)
		}()
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// startNATS runs an embedded NATS server with JetStream for one test.
func startNATS(t *testing.T) *nats.Conn {
	t.Helper()
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// newDaemon builds a daemon against ls with fast retries.
func newDaemon(t *testing.T, nc *nats.Conn, ls *licenseServer, proxy string) *Daemon {
	t.Helper()
	client, err := NewClient(ClientOptions{CAFile: ls.caFile, Proxy: proxy, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := New(ctx, nc, Options{
		URL: ls.srv.URL + "/v1/check", Token: "tok-123", InstanceID: "test-node", Version: "4.148.0",
		Client: client, Interval: time.Hour, Attempts: 3, Backoff: 10 * time.Millisecond,
		MaxBackoff: 40 * time.Millisecond, RetryInterval: 50 * time.Millisecond, UsageRefresh: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
