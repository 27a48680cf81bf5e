package gateway

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"docsuite/pkg/bus"
	"docsuite/pkg/bus/bustest"
	"docsuite/pkg/config"
	"docsuite/pkg/store"
)

// newTestGateway starts a real gateway (embedded NATS with JetStream, a
// folder store, the gateway's own routes) with no stage workers behind
// it, and returns it with its HTTP test server. tweaks change its
// configuration after the test's defaults are set.
func newTestGateway(t *testing.T, tweaks ...func(*config.Gateway)) (*Server, *httptest.Server) {
	t.Helper()
	_, nc, log := bustest.Start(t, "gateway-test")
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var cfg config.Gateway
	if err := config.Load(&cfg, ""); err != nil {
		t.Fatal(err)
	}
	// Built-in defaults whatever the environment of the test says.
	cfg.AuthMode, cfg.LicenseEnforce, cfg.PipelineTimeout, cfg.CompletedTTL = "open", false, 10, 60
	for _, tweak := range tweaks {
		tweak(&cfg)
	}
	reg := prometheus.NewRegistry()
	s, err := New(context.Background(), cfg, nc, st, log, reg, bus.NewMetrics(reg))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv
}

// TestOpenAPIPathsAnswer pins the OpenAPI document to the router: every
// route the gateway serves is in the document with its methods, every
// method the document names is served (neither 404 nor 405), and every
// other method answers 405 with the JSON envelope (errno 7).
func TestOpenAPIPathsAnswer(t *testing.T) {
	s, srv := newTestGateway(t)
	doc := OpenAPI()
	paths := doc["paths"].(obj)

	// The router's routes, in OpenAPI's notation. The Swagger UI's own
	// assets under /docs/ are not API paths.
	served := map[string][]string{}
	for _, r := range s.engine.Routes() {
		if strings.HasPrefix(r.Path, "/docs/") {
			continue
		}
		p := r.Path
		if i := strings.Index(p, ":"); i >= 0 {
			p = p[:i] + "{" + p[i+1:] + "}"
		}
		served[p] = append(served[p], strings.ToLower(r.Method))
	}
	for p, methods := range served {
		item, ok := paths[p].(obj)
		if !ok {
			t.Errorf("%s is served but not in the OpenAPI document", p)
			continue
		}
		var documented []string
		for m := range item {
			documented = append(documented, m)
		}
		sort.Strings(methods)
		sort.Strings(documented)
		if !slices.Equal(methods, documented) {
			t.Errorf("%s: served %v, documented %v", p, methods, documented)
		}
	}

	all := []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch}
	for p, v := range paths {
		item := v.(obj)
		url := srv.URL + strings.ReplaceAll(p, "{task_id}", "0123456789abcdef0123456789abcdef")
		for _, m := range all {
			_, documented := item[strings.ToLower(m)]
			req, _ := http.NewRequest(m, url, nil)
			req.Header.Set("Token", "t")
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			resp, err := http.DefaultClient.Do(req.WithContext(ctx))
			if err != nil {
				cancel()
				t.Fatalf("%s %s: %v", m, p, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			cancel()
			switch {
			case documented && (resp.StatusCode == http.StatusNotFound && p != "/result/{task_id}" || resp.StatusCode == http.StatusMethodNotAllowed):
				t.Errorf("%s %s is documented but answers %d %s", m, p, resp.StatusCode, body)
			case !documented && resp.StatusCode != http.StatusMethodNotAllowed:
				t.Errorf("%s %s is not documented but answers %d, want 405", m, p, resp.StatusCode)
			case !documented && m != http.MethodHead:
				var e struct{ Errno int }
				if err := json.Unmarshal(body, &e); err != nil || e.Errno != 7 ||
					!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
					t.Errorf("%s %s: 405 body %q (%s), want the JSON envelope with errno 7", m, p, body, resp.Header.Get("Content-Type"))
				}
			}
		}
	}
}

// TestHeadAnswersAsGet: the pages docs/api.md says answer HEAD too give
// the GET's status and content type without a body.
func TestHeadAnswersAsGet(t *testing.T) {
	_, srv := newTestGateway(t)
	for _, p := range []string{"/docs", "/openapi.json", "/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js"} {
		get, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		get.Body.Close()
		head, err := http.Head(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if get.StatusCode != http.StatusOK || head.StatusCode != get.StatusCode ||
			head.Header.Get("Content-Type") != get.Header.Get("Content-Type") || len(body) != 0 {
			t.Errorf("%s: GET %d %q, HEAD %d %q with %d bytes", p, get.StatusCode, get.Header.Get("Content-Type"),
				head.StatusCode, head.Header.Get("Content-Type"), len(body))
		}
	}
}

// TestTokenIsASecurityScheme: the hosted-compatible paths declare the
// token as a security scheme, so the API page has the Authorize button
// the service description speaks of, and the scheme is where the gateway
// reads it (the token query parameter, or the Token header).
func TestTokenIsASecurityScheme(t *testing.T) {
	doc := OpenAPI()
	schemes, _ := dig(doc, "components", "securitySchemes").(obj)
	for name, want := range map[string][2]string{"token": {"query", "token"}, "tokenHeader": {"header", "Token"}} {
		s, _ := schemes[name].(obj)
		if s["type"] != "apiKey" || s["in"] != want[0] || s["name"] != want[1] {
			t.Errorf("security scheme %s = %v, want apiKey in %s named %s", name, s, want[0], want[1])
		}
	}
	for _, p := range []string{"/classify", "/recognize"} {
		sec, _ := dig(doc, "paths", p, "post", "security").([]obj)
		if len(sec) != 2 {
			t.Errorf("%s: security %v, want the token schemes", p, sec)
		}
	}
	if sec, _ := dig(doc, "paths", "/result/{task_id}", "get", "security").([]obj); len(sec) != 3 || len(sec[0]) != 0 {
		t.Errorf("/result: security %v, want optional token schemes", sec)
	}
	if sec := dig(doc, "paths", "/pipelines/run/classify", "post", "security"); sec != nil {
		t.Errorf("on-premises classify asks for a token: %v", sec)
	}
	// No operation also lists token as a plain parameter.
	for p, item := range doc["paths"].(obj) {
		for m, op := range item.(obj) {
			ps, _ := op.(obj)["parameters"].([]obj)
			for _, q := range ps {
				if q["name"] == "token" {
					t.Errorf("%s %s lists token as a parameter besides the security scheme", m, p)
				}
			}
		}
	}
}

// dig walks nested objects by keys; nil when one is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(obj)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
