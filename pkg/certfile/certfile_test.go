package certfile

import (
	"crypto/tls"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// served is the serial number of the certificate the source hands to the
// next handshake, looking at the files again first.
func served(t *testing.T, s *Source) string {
	t.Helper()
	s.mu.Lock()
	s.checked = s.checked.Add(-checkEvery)
	s.mu.Unlock()
	c, err := s.GetCertificate(&tls.ClientHelloInfo{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Leaf.SerialNumber.String()
}

func TestOpenRefusesBrokenPairs(t *testing.T) {
	dir := t.TempDir()
	a := testutil.WriteTLSPair(t, dir, "a")
	b := testutil.WriteTLSPair(t, dir, "b")
	missing := filepath.Join(dir, "missing.pem")
	tests := []struct {
		name, cert, key, want string
	}{
		{"certificate missing", missing, a.KeyFile, "certfile: stat " + missing + ": no such file or directory"},
		{"key missing", a.CertFile, missing, "certfile: stat " + missing + ": no such file or directory"},
		{"key of another certificate", a.CertFile, b.KeyFile, "private key does not match public key"},
		{"key and certificate swapped", a.KeyFile, a.CertFile, "failed to find certificate PEM data"},
		{"certificate as both", a.CertFile, a.CertFile, "found a certificate rather than a key"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.cert, tc.key, quiet())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open: %v, want an error containing %q", err, tc.want)
			}
		})
	}
	t.Run("key unreadable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads every file")
		}
		if err := os.Chmod(a.KeyFile, 0); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(a.KeyFile, 0o600)
		if _, err := Open(a.CertFile, a.KeyFile, quiet()); err == nil || !strings.Contains(err.Error(), "certfile: key: open "+a.KeyFile+": permission denied") {
			t.Fatalf("Open: %v", err)
		}
	})
}

// TestRotation: a certificate replaced on disk is served from the next
// look at the files on; one replaced before its key keeps the previous
// pair in use until the key follows.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	old := testutil.WriteTLSPair(t, dir, "old")
	next := testutil.WriteTLSPair(t, dir, "next")
	live := testutil.WriteTLSPair(t, dir, "live")
	testutil.ReplaceFile(t, old.CertFile, live.CertFile)
	testutil.ReplaceFile(t, old.KeyFile, live.KeyFile)
	s, err := Open(live.CertFile, live.KeyFile, quiet())
	if err != nil {
		t.Fatal(err)
	}
	oldSerial, nextSerial := old.Cert.SerialNumber.String(), next.Cert.SerialNumber.String()
	if got := served(t, s); got != oldSerial {
		t.Fatalf("serves %s, want %s", got, oldSerial)
	}
	testutil.ReplaceFile(t, next.CertFile, live.CertFile)
	if got := served(t, s); got != oldSerial {
		t.Fatalf("with the new certificate beside the old key serves %s, want the old %s", got, oldSerial)
	}
	testutil.ReplaceFile(t, next.KeyFile, live.KeyFile)
	if got := served(t, s); got != nextSerial {
		t.Fatalf("after rotation serves %s, want %s", got, nextSerial)
	}
	if err := os.Remove(live.KeyFile); err != nil {
		t.Fatal(err)
	}
	if got := served(t, s); got != nextSerial {
		t.Fatalf("with the key removed serves %s, want %s", got, nextSerial)
	}
}

// TestServerConfig: TLS 1.0 and 1.1 are refused; TLS 1.2 and 1.3 agree on
// HTTP/1.1.
func TestServerConfig(t *testing.T) {
	p := testutil.WriteTLSPair(t, t.TempDir(), "srv")
	s, err := Open(p.CertFile, p.KeyFile, quiet())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", s.ServerConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _ = c.(*tls.Conn).Handshake(); c.Close() }()
		}
	}()
	tests := []struct {
		name    string
		version uint16
		ok      bool
	}{
		{"TLS 1.0", tls.VersionTLS10, false},
		{"TLS 1.1", tls.VersionTLS11, false},
		{"TLS 1.2", tls.VersionTLS12, true},
		{"TLS 1.3", tls.VersionTLS13, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: p.Pool, ServerName: "localhost",
				MinVersion: tc.version, MaxVersion: tc.version, NextProtos: []string{"h2", "http/1.1"}})
			if !tc.ok {
				if err == nil {
					c.Close()
					t.Fatal("handshake succeeded")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if st := c.ConnectionState(); st.Version != tc.version || st.NegotiatedProtocol != "http/1.1" {
				t.Fatalf("version %x, protocol %q", st.Version, st.NegotiatedProtocol)
			}
		})
	}
}
