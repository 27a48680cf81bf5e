package topology

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/testutil"
)

// testNginxTLS runs nginx as the image does with DOCSUITE_TLS=on (its
// entrypoint, listen-tls.conf) in front of the running gateways, with a
// certificate made for the test: a classify request over HTTPS, HTTP/1.1
// even to a client offering HTTP/2, TLS 1.1 refused, plain HTTP on the
// port answered with the JSON 400, and a renewed certificate served after
// SIGHUP (docker compose kill -s HUP nginx).
func testNginxTLS(t *testing.T, c *Cluster) {
	certDir := t.TempDir()
	first := testutil.WriteTLSPair(t, certDir, "tls")
	renewed := testutil.WriteTLSPair(t, t.TempDir(), "tls")
	pool := x509.NewCertPool()
	pool.AddCert(first.Cert)
	pool.AddCert(renewed.Cert)
	client := &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{ForceAttemptHTTP2: true,
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, base, err := c.StartNginxTLS(ctx, certDir, client)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(15 * time.Second)
	a := &api{base: base, client: client}

	r, err := a.postFile("/pipelines/run/classify", "image", docJPEG(t, 1200, 900, 7), map[string]string{"X-Request-Id": "topology-tls"})
	if err != nil {
		t.Fatal(err)
	}
	if items, _ := r.body["items"].([]any); r.status != http.StatusOK || len(items) == 0 {
		t.Fatalf("classify over HTTPS: %d %s", r.status, r.raw)
	}
	if got := r.header.Get("X-Request-Id"); got != "topology-tls" {
		t.Errorf("X-Request-Id %q", got)
	}
	served := func() *http.Response {
		t.Helper()
		client.CloseIdleConnections() // a new handshake each time
		resp, err := client.Get(base + "/healthcheck")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := served()
	if resp.StatusCode != http.StatusOK || resp.Proto != "HTTP/1.1" || resp.TLS.Version < tls.VersionTLS12 {
		t.Errorf("healthcheck over HTTPS: %d %s, TLS version %x", resp.StatusCode, resp.Proto, resp.TLS.Version)
	}
	if got := resp.TLS.PeerCertificates[0].SerialNumber; got.Cmp(first.Cert.SerialNumber) != 0 {
		t.Errorf("serves certificate %v, want %v", got, first.Cert.SerialNumber)
	}

	t.Run("TLS 1.1 refused", func(t *testing.T) {
		conn, err := tls.Dial("tcp", p.Addr, &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS11, MaxVersion: tls.VersionTLS11})
		if err == nil {
			conn.Close()
			t.Fatal("TLS 1.1 handshake succeeded")
		}
	})
	t.Run("plain HTTP answered 400", func(t *testing.T) {
		const secret = "topology-secret-token"
		r, err := newAPI("http://"+p.Addr).postFile("/classify?token="+secret, "image", docJPEG(t, 400, 300, 1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.status != http.StatusBadRequest || r.errno() != errnoOf(apierr.BadRequest) || !strings.Contains(string(r.raw), "use https://") {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		id := r.header.Get("X-Request-Id")
		if !hex32.MatchString(id) {
			t.Errorf("X-Request-Id %q", id)
		}
		// The access log names the path the client asked for, not the
		// error page's location, and never the token of its query.
		line := accessLogLine(t, p, id)
		if line["method"] != http.MethodPost || line["uri"] != "/classify" || line["status"] != float64(http.StatusBadRequest) {
			t.Errorf("access log line %v, want POST /classify, status 400", line)
		}
		if b, _ := os.ReadFile(p.LogPath); strings.Contains(string(b), secret) {
			t.Errorf("the token reached nginx's log:\n%s", b)
		}
	})
	t.Run("renewed certificate after SIGHUP", func(t *testing.T) {
		for _, name := range []string{"tls.key", "tls.crt"} {
			b, err := os.ReadFile(filepath.Join(filepath.Dir(renewed.CertFile), name))
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(certDir, name)
			if err := os.WriteFile(dst+".new", b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(dst+".new", dst); err != nil {
				t.Fatal(err)
			}
		}
		p.Reload()
		deadline := time.Now().Add(20 * time.Second)
		for served().TLS.PeerCertificates[0].SerialNumber.Cmp(renewed.Cert.SerialNumber) != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("the renewed certificate is not served 20 s after SIGHUP; log tail:\n%s", p.Tail(2000))
			}
			time.Sleep(200 * time.Millisecond)
		}
		if r, err := a.get("/openapi.json"); err != nil || r.status != http.StatusOK {
			t.Fatalf("after the renewal: %v %d", err, r.status)
		}
	})
	fmt.Printf("topology: nginx over HTTPS (DOCSUITE_TLS=on) at %s: classify 200, TLS 1.1 refused, plain HTTP 400, renewal after SIGHUP\n", base)
}

// accessLogLine returns the JSON line of nginx's access log (deploy/nginx's
// docsuite_json format, in the process's log) for the request id, waiting a
// little for nginx to write it.
func accessLogLine(t *testing.T, p *Proc, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(p.LogPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["request_id"] == id {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no access log line for request %s; log tail:\n%s", id, p.Tail(2000))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
