// Package certfile serves a TLS certificate chain and its private key from
// two PEM files and reads them again when either changes, so that a
// renewed certificate is served without a restart. It also holds the
// suite's TLS policy for the servers that speak HTTPS themselves (the
// gateway and the all-in-one): TLS 1.2 and 1.3 only, forward-secret AEAD
// cipher suites, HTTP/1.1.
package certfile

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// checkEvery is how often, at most, the files are looked at again: the
// first handshake after this long since the last look stats both files
// and reads them again only when one has changed.
const checkEvery = time.Second

// Source hands out the certificate of its two files to TLS handshakes.
type Source struct {
	certFile, keyFile string
	log               *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	seen    [2]os.FileInfo // the files as they were when cert was read
	checked time.Time      // the last look at the files
	problem string         // the last reload failure logged, so it is logged once
}

// Open reads the certificate chain (PEM, the server's certificate first,
// then any intermediates) and its private key (PEM, PKCS #1, PKCS #8 or
// SEC 1) and checks that they belong together. Its errors name the file
// that is missing or unreadable, or say that the key does not fit the
// certificate; a certificate that has expired or is not valid yet is
// served all the same, with a warning in the log.
func Open(certFile, keyFile string, log *slog.Logger) (*Source, error) {
	s := &Source{certFile: certFile, keyFile: keyFile, log: log}
	seen, err := s.stat()
	if err != nil {
		return nil, err
	}
	cert, err := s.read()
	if err != nil {
		return nil, err
	}
	s.cert, s.seen, s.checked = cert, seen, time.Now()
	s.logLoaded("TLS certificate loaded", cert)
	return s, nil
}

// ServerConfig is the TLS configuration of a server that serves this
// source's certificate: TLS 1.2 and 1.3 only, ECDHE key exchange with AEAD
// ciphers under TLS 1.2 (TLS 1.3's suites are all of that kind), and
// HTTP/1.1 offered by ALPN.
func (s *Source) ServerConfig() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		CipherSuites: []uint16{
			tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
		},
		NextProtos:     []string{"http/1.1"},
		GetCertificate: s.GetCertificate,
	}
}

// GetCertificate returns the current certificate (tls.Config's
// GetCertificate). When the files changed since they were read, it reads
// them again first; a pair that cannot be read or does not fit together
// (one file replaced before the other) leaves the previous certificate in
// use, is logged once as a warning, and is tried again on a later
// handshake.
func (s *Source) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := time.Now(); now.Sub(s.checked) >= checkEvery {
		s.checked = now
		s.refresh()
	}
	return s.cert, nil
}

// refresh reads the files again when they changed (see GetCertificate).
func (s *Source) refresh() {
	seen, err := s.stat()
	if err == nil && same(seen, s.seen) {
		return
	}
	var cert *tls.Certificate
	if err == nil {
		cert, err = s.read()
	}
	if err != nil {
		if msg := err.Error(); msg != s.problem {
			s.problem = msg
			s.log.Warn("TLS certificate not reloaded: still serving the previous one", "err", err)
		}
		return
	}
	s.cert, s.seen, s.problem = cert, seen, ""
	s.logLoaded("TLS certificate reloaded", cert)
}

func (s *Source) stat() ([2]os.FileInfo, error) {
	var out [2]os.FileInfo
	for i, f := range []string{s.certFile, s.keyFile} {
		fi, err := os.Stat(f)
		if err != nil {
			return out, fmt.Errorf("certfile: %w", err)
		}
		out[i] = fi
	}
	return out, nil
}

// same tells whether both files are still those last read: the same file
// (a file renamed over it is another), size and modification time.
func same(a, b [2]os.FileInfo) bool {
	for i := range a {
		if b[i] == nil || !os.SameFile(a[i], b[i]) || a[i].Size() != b[i].Size() || !a[i].ModTime().Equal(b[i].ModTime()) {
			return false
		}
	}
	return true
}

func (s *Source) read() (*tls.Certificate, error) {
	certPEM, err := os.ReadFile(s.certFile)
	if err != nil {
		return nil, fmt.Errorf("certfile: certificate: %w", err)
	}
	keyPEM, err := os.ReadFile(s.keyFile)
	if err != nil {
		return nil, fmt.Errorf("certfile: key: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("certfile: certificate %s with key %s: %w", s.certFile, s.keyFile, err)
	}
	if cert.Leaf == nil {
		if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil, fmt.Errorf("certfile: certificate %s: %w", s.certFile, err)
		}
	}
	return &cert, nil
}

// logLoaded says which certificate is served, and warns when it is not
// valid now.
func (s *Source) logLoaded(msg string, cert *tls.Certificate) {
	leaf := cert.Leaf
	args := []any{"file", s.certFile, "subject", leaf.Subject.String(), "dns_names", leaf.DNSNames,
		"not_after", leaf.NotAfter.UTC().Format(time.RFC3339)}
	s.log.Info(msg, args...)
	switch now := time.Now(); {
	case now.After(leaf.NotAfter):
		s.log.Warn("TLS certificate has expired: clients will refuse it", args...)
	case now.Before(leaf.NotBefore):
		s.log.Warn("TLS certificate is not valid yet: clients will refuse it", append(args, "not_before", leaf.NotBefore.UTC().Format(time.RFC3339))...)
	}
}
