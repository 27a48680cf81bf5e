package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/testutil"
)

// trusting is an HTTPS client that trusts the self-signed certificate in
// certFile, and offers HTTP/2 as a browser would (the all-in-one answers
// HTTP/1.1).
func trusting(certFile string) (*http.Client, error) {
	pem, err := os.ReadFile(certFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no certificate in %s", certFile)
	}
	return &http.Client{Transport: &http.Transport{ForceAttemptHTTP2: true,
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}, nil
}

// TestClassifyOverHTTPS: with TLS_CERT_FILE and TLS_KEY_FILE the
// all-in-one answers a classify request over HTTPS (HTTP/1.1), answers
// plain HTTP on the same port with the JSON 400 that says to use
// https://, and serves a certificate renewed on disk without a restart.
func TestClassifyOverHTTPS(t *testing.T) {
	dir := t.TempDir()
	first := testutil.WriteTLSPair(t, dir, "first")
	renewed := testutil.WriteTLSPair(t, dir, "renewed")
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	install := func(p testutil.TLSPair) {
		for src, dst := range map[string]string{p.CertFile: certFile, p.KeyFile: keyFile} {
			testutil.ReplaceFile(t, src, dst)
		}
	}
	install(first)
	in := startAllInOne(t, map[string]string{"TLS_CERT_FILE": certFile, "TLS_KEY_FILE": keyFile})
	if !strings.HasPrefix(in.base, "https://") {
		t.Fatalf("base %s", in.base)
	}

	resp, err := in.send("/pipelines/run/classify", "image", scanJPEG(t, 1200, 900))
	if err != nil {
		t.Fatal(err)
	}
	if resp.TLS == nil || resp.Proto != "HTTP/1.1" {
		t.Errorf("answer over %s, TLS %v", resp.Proto, resp.TLS != nil)
	} else if got := resp.TLS.PeerCertificates[0].SerialNumber; got.Cmp(first.Cert.SerialNumber) != 0 {
		t.Errorf("served certificate %v, want %v", got, first.Cert.SerialNumber)
	}
	status, body := decodeBody(t, resp)
	if items, _ := body["items"].([]any); status != http.StatusOK || len(items) == 0 {
		t.Fatalf("classify over HTTPS: %d %v", status, body)
	}

	t.Run("plain HTTP is refused", func(t *testing.T) {
		conn, err := net.Dial("tcp", strings.TrimPrefix(in.base, "https://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(conn, "GET /healthcheck HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		status, body := decodeBody(t, resp)
		if status != http.StatusBadRequest || body["errno"] != 27.0 || !strings.Contains(fmt.Sprint(body["detail"]), "use https://") {
			t.Fatalf("%d %v", status, body)
		}
	})

	t.Run("renewed certificate served without a restart", func(t *testing.T) {
		install(renewed)
		deadline := time.Now().Add(10 * time.Second)
		for {
			// A fresh connection each time: a kept-alive one shows the
			// certificate of its own handshake.
			c := &http.Client{Transport: in.client.Transport.(*http.Transport).Clone()}
			c.Transport.(*http.Transport).TLSClientConfig.RootCAs.AddCert(renewed.Cert)
			resp, err := c.Get(in.base + "/openapi.json")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.TLS.PeerCertificates[0].SerialNumber.Cmp(renewed.Cert.SerialNumber) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the renewed certificate is not served after 10 s")
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}
