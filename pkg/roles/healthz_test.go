package roles

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"docsuite/pkg/bus/bustest"
	"docsuite/pkg/store"
)

// TestHealthzSaysWhatIsDown checks a worker's container health check: 200
// while it reaches NATS and its store, 503 naming NATS once the server is
// gone (it answered 200 whatever the worker could reach).
func TestHealthzSaysWhatIsDown(t *testing.T) {
	ns, nc, log := bustest.Start(t, "test")
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := healthz(Deps{NC: nc, Store: st, Log: log})
	get := func() (int, map[string]any) {
		w := httptest.NewRecorder()
		h(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		var body map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("body %q: %v", w.Body.String(), err)
		}
		return w.Code, body
	}
	if code, body := get(); code != http.StatusOK || body["success"] != true {
		t.Fatalf("connected: %d %v, want 200 success", code, body)
	}
	ns.Shutdown()
	for nc.IsConnected() {
		time.Sleep(10 * time.Millisecond)
	}
	code, body := get()
	checks, _ := body["checks"].(map[string]any)
	if code != http.StatusServiceUnavailable || body["success"] != false || checks["nats"] != "not connected" || checks["store"] != "ok" {
		t.Errorf("NATS gone: %d %v, want 503 naming nats", code, body)
	}
}
