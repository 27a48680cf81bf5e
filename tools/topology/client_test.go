package topology

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"docsuite/pkg/licensed"
)

// api is a client of the topology's public port (nginx).
type api struct {
	base   string
	client *http.Client
}

func newAPI(base string) *api {
	return &api{base: base, client: &http.Client{Timeout: 2 * time.Minute}}
}

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    []byte
}

func (r reply) errno() int {
	n, _ := r.body["errno"].(float64)
	return int(n)
}

func (a *api) do(req *http.Request) (reply, error) {
	resp, err := a.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, err
	}
	r := reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r, nil
}

// postFile sends data as the multipart field (normally "image").
func (a *api) postFile(path, field string, data []byte, header map[string]string) (reply, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(field, "scan.jpg")
	if err != nil {
		return reply{}, err
	}
	if _, err := fw.Write(data); err != nil {
		return reply{}, err
	}
	if err := mw.Close(); err != nil {
		return reply{}, err
	}
	req, err := http.NewRequest(http.MethodPost, a.base+path, &buf)
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return a.do(req)
}

func (a *api) postRaw(path, contentType string, body []byte) (reply, error) {
	req, err := http.NewRequest(http.MethodPost, a.base+path, bytes.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", contentType)
	return a.do(req)
}

func (a *api) get(path string) (reply, error) {
	req, err := http.NewRequest(http.MethodGet, a.base+path, nil)
	if err != nil {
		return reply{}, err
	}
	return a.do(req)
}

// docJPEG draws a light card with text-like stripes on a darker table, at
// a position and size varied by seed: one document per image.
func docJPEG(t testing.TB, w, h int, seed uint64) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := color.RGBA{uint8(70 + rng.IntN(40)), uint8(55 + rng.IntN(30)), uint8(40 + rng.IntN(30)), 255}
	x0, y0 := w/8+rng.IntN(w/10), h/8+rng.IntN(h/10)
	x1, y1 := w*7/8-rng.IntN(w/10), h*7/8-rng.IntN(h/10)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := bg
			if x >= x0 && x < x1 && y >= y0 && y < y1 {
				c = color.RGBA{240, 236, 225, 255}
				if (y-y0)%24 < 6 && (x-x0)%200 < 150 && x > x0+40 && x < x1-40 {
					c = color.RGBA{40, 40, 60, 255}
				}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// vendorServer is the license vendor's server for the test: a real HTTPS
// peer of the protocol in docs/license.md answering the verdict it is set
// to, and recording what the daemon reports.
type vendorServer struct {
	srv    *httptest.Server
	caFile string

	mu     sync.Mutex
	status int
	body   string
	usage  []licensed.Usage
}

func startVendor(t *testing.T) *vendorServer {
	t.Helper()
	v := &vendorServer{status: http.StatusOK, body: `{"valid":true,"requests_left":1000000}`}
	v.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req licensed.Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Token != "topology-token" {
			w.WriteHeader(http.StatusForbidden)
			_, _ = io.WriteString(w, `{"valid":false,"reason":"unknown token"}`)
			return
		}
		v.mu.Lock()
		v.usage = append(v.usage, req.Usage)
		status, body := v.status, v.body
		v.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	v.srv.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	v.srv.StartTLS()
	t.Cleanup(v.srv.Close)
	v.caFile = filepath.Join(t.TempDir(), "vendor-ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: v.srv.Certificate().Raw})
	if err := os.WriteFile(v.caFile, pemBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	return v
}

func (v *vendorServer) set(status int, body string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.status, v.body = status, body
}

// lastUsage is the usage the daemon reported last.
func (v *vendorServer) lastUsage() (licensed.Usage, int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.usage) == 0 {
		return licensed.Usage{}, 0
	}
	return v.usage[len(v.usage)-1], len(v.usage)
}

// expiredBody is a verdict whose license ended yesterday.
func expiredBody() string {
	return fmt.Sprintf(`{"valid":false,"reason":"expired","expires":%q}`, time.Now().Add(-24*time.Hour).UTC().Format(time.RFC3339))
}
