// Package address is the client of an external address-suggestion
// service (FIAS/GAR based, such as an installation's own DaData-like
// proxy), used by the recognize method when normalization_fias=true.
// On premises it is off unless ADDRESS_SERVICE_URL names the service.
//
// The contract, kept small so that any adapter can serve it:
//
//	POST <ADDRESS_SERVICE_URL>
//	Content-Type: application/json
//	{"query": "ГОР. ТВЕРЬ, УЛ. ЛЕНИНА, Д. 5, КВ. 3"}
//
//	200 {"value": "г Тверь, ул Ленина, д 5, кв 3", "fias_id": "..."}
//
// value is the normalised address (empty: the service found none);
// other members are ignored. Any other status, a malformed body or no
// answer within ADDRESS_SERVICE_TIMEOUT is an error, which the caller
// logs, keeping the address as read.
package address

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Client calls the address service; it is safe for concurrent use.
type Client struct {
	url     string
	timeout time.Duration
	http    *http.Client
}

// New returns a client of the service at url; nil when url is empty (the
// service is not configured).
func New(url string, timeout time.Duration) *Client {
	if url == "" {
		return nil
	}
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	return &Client{url: url, timeout: timeout, http: &http.Client{}}
}

type request struct {
	Query string `json:"query"`
}

type response struct {
	Value string `json:"value"`
}

// Normalize returns the service's form of address ("" when it has none,
// or when c is nil: no service configured).
func (c *Client) Normalize(ctx context.Context, address string) (string, error) {
	if c == nil {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	body, err := json.Marshal(request{Query: address})
	if err != nil {
		return "", fmt.Errorf("address: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("address: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("address: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("address: read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("address: service answered %d", resp.StatusCode)
	}
	var out response
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", fmt.Errorf("address: malformed answer: %w", err)
	}
	return out.Value, nil
}
