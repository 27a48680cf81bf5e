package licensed

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"docsuite/pkg/config"
)

// ClientOptions configure the HTTPS client that reaches the license server.
type ClientOptions struct {
	// Proxy is LICENSE_PROXY: an http:// or https:// proxy URL. Empty
	// means the standard HTTPS_PROXY / NO_PROXY variables of the process.
	Proxy string
	// CAFile is LICENSE_CA_FILE: PEM certificates trusted in addition to
	// the system's.
	CAFile string
	// Timeout bounds one request (default 30 s).
	Timeout time.Duration
}

// NewClient builds the HTTPS client of the daemon: TLS 1.2 or newer,
// certificates checked against the system pool plus CAFile, the
// configured proxy, and redirects followed only to https addresses.
func NewClient(o ClientOptions) (*http.Client, error) {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("licensed: LICENSE_CA_FILE: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("licensed: LICENSE_CA_FILE %s holds no PEM certificate", o.CAFile)
		}
	}
	proxy := http.ProxyFromEnvironment
	if o.Proxy != "" {
		u, err := parseProxy(o.Proxy)
		if err != nil {
			return nil, err
		}
		proxy = http.ProxyURL(u)
	}
	tr := &http.Transport{
		Proxy:                 proxy,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: o.Timeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          2,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "https" {
				return fmt.Errorf("licensed: refusing redirect to %s (not https)", req.URL.Redacted())
			}
			if len(via) >= 5 {
				return errors.New("licensed: too many redirects")
			}
			return nil
		},
	}, nil
}

func parseProxy(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("licensed: LICENSE_PROXY: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("licensed: LICENSE_PROXY=%q must be http://host:port or https://host:port", u.Redacted())
	}
	return u, nil
}

// Validate checks the daemon's configuration: a token, an https
// LICENSE_URL, a positive interval and a well-formed proxy.
func Validate(c config.License) error {
	errs := c.Common.Problems()
	if strings.TrimSpace(c.Token) == "" {
		errs = append(errs, "LICENSE_TOKEN is required")
	}
	u, err := url.Parse(c.URL)
	switch {
	case c.URL == "":
		errs = append(errs, "LICENSE_URL is required")
	case err != nil || u.Scheme != "https" || u.Host == "":
		errs = append(errs, fmt.Sprintf("LICENSE_URL=%q must be an https:// address", c.URL))
	}
	if c.Interval <= 0 || c.Interval > 366*24*3600 {
		errs = append(errs, fmt.Sprintf("LICENSE_CHECK_INTERVAL=%d must be between 1 and %d (seconds)", c.Interval, 366*24*3600))
	}
	if c.Proxy != "" {
		if _, err := parseProxy(c.Proxy); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("invalid configuration: %s", strings.Join(errs, "; "))
}
