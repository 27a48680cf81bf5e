// Package licensed is the logic of the license daemon: it POSTs the
// installation's LICENSE_TOKEN, with the instance id, the release and the
// usage counters, to the vendor's license server over HTTPS (through the
// configured proxy), on start and every LICENSE_CHECK_INTERVAL, and
// publishes the verdict on NATS KV (licensestate) for the gateways. When
// the license server cannot be reached it keeps the last verdict it had,
// marked unreachable, so the gateway's grace period applies. The protocol
// is documented in docs/license.md.
package licensed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Request is the JSON body POSTed to LICENSE_URL.
type Request struct {
	// Token is LICENSE_TOKEN.
	Token string `json:"token"`
	// InstanceID names the installation (INSTANCE_ID or the host name).
	InstanceID string `json:"instance_id"`
	// Version is the release of the suite, e.g. "4.148.0".
	Version string `json:"version"`
	// Usage are the installation's counters.
	Usage Usage `json:"usage"`
	// SentAt is the daemon's clock when the request was made (UTC).
	SentAt time.Time `json:"sent_at"`
}

// Usage are the counters reported with each check.
type Usage struct {
	// RequestsTotal counts requests the gateways served (synchronous ones
	// answered, async tasks queued) since Since;
	// it only grows while Since stays the same.
	RequestsTotal int64 `json:"requests_total"`
	// Since is when the counter started (the creation time of its
	// stream); a new value means the counter was reset.
	Since time.Time `json:"since"`
}

// Response is the license server's answer.
type Response struct {
	// Valid is the server's overall verdict.
	Valid bool `json:"valid"`
	// Expires is when the license ends (absent: no end date).
	Expires *time.Time `json:"expires,omitempty"`
	// RequestsLeft is how many requests the license still allows
	// (absent: unlimited).
	RequestsLeft *int64 `json:"requests_left,omitempty"`
	// Reason explains a refusal in words ("revoked", "unknown token").
	Reason string `json:"reason,omitempty"`
	// ServerTime is the server's clock when it answered (its HTTP Date
	// header); zero when the answer carries none.
	ServerTime time.Time `json:"-"`
}

// decodeVerdict reads a 2xx body: a JSON object whose "valid" is true or
// false. Anything else (another JSON value, an object without "valid",
// such as a portal's or a proxy's own JSON page) is not a verdict.
func decodeVerdict(raw []byte) (Response, error) {
	var out Response
	if err := json.Unmarshal(raw, &out); err != nil {
		return Response{}, err
	}
	var present struct {
		Valid *bool `json:"valid"`
	}
	if err := json.Unmarshal(raw, &present); err != nil || present.Valid == nil {
		return Response{}, errors.New(`no "valid" field of true or false`)
	}
	return out, nil
}

// maxResponseBytes bounds what is read of the server's answer.
const maxResponseBytes = 64 << 10

// errUnreachable marks failures that mean "no answer from the license
// server" (network, TLS, proxy, 5xx, an unexpected status or body) as
// opposed to an answer that refuses the license.
var errUnreachable = errors.New("license server unreachable")

// Post sends one check to url and returns the server's answer. An answer
// is a 2xx with a JSON Response, or 401/403 (the server refused the
// token; the body's reason is used when it is JSON). Anything else is an
// error wrapping errUnreachable, so the caller retries and the last
// verdict stays in force.
func Post(ctx context.Context, client *http.Client, url string, req Request) (Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Response{}, fmt.Errorf("licensed: encode request: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Response{}, fmt.Errorf("licensed: build request: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	hr.Header.Set("User-Agent", "docsuite-license/"+req.Version)
	resp, err := client.Do(hr)
	if err != nil {
		return Response{}, fmt.Errorf("%w: %w", errUnreachable, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return Response{}, fmt.Errorf("%w: read answer: %w", errUnreachable, err)
	}
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		out, err := decodeVerdict(raw)
		if err != nil {
			return Response{}, fmt.Errorf("%w: HTTP %d with a body that is not a verdict (%.80q): %w", errUnreachable, resp.StatusCode, raw, err)
		}
		out.ServerTime = serverTime(resp)
		return out, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		var out Response
		if json.Unmarshal(raw, &out) != nil || out.Reason == "" {
			out.Reason = fmt.Sprintf("license server refused the token (HTTP %d)", resp.StatusCode)
		}
		out.Valid = false
		out.ServerTime = serverTime(resp)
		return out, nil
	default:
		return Response{}, fmt.Errorf("%w: HTTP %d", errUnreachable, resp.StatusCode)
	}
}

// serverTime is the answer's Date header, zero when absent or unreadable.
func serverTime(resp *http.Response) time.Time {
	t, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
