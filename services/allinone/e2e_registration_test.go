package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// registrationPage is a clean scan of the factory's residence page of
// type typ (seed 7, first scene), as PNG, and its truth.
func registrationPage(t *testing.T, typ string) ([]byte, map[string]string) {
	t.Helper()
	up, truth := factoryScan(t, typ, 0)
	return encodePNG(t, up), truth
}

// TestRecognizeRegistration posts residence pages to /recognize as
// passport_registration: the answered type follows the newest stamp's
// kind, its date is read, issuing_authority comes from the subdivision
// directory unless use_internal_api=false, and with normalization_fias the
// address is the configured address service's (a real HTTP server here).
func TestRecognizeRegistration(t *testing.T) {
	var mu sync.Mutex
	var queries []string
	called := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), queries...)
	}
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct{ Query string }
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		queries = append(queries, q.Query)
		mu.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]string{"value": "normalised: " + q.Query})
	}))
	defer svc.Close()
	in := startAllInOne(t, map[string]string{"ADDRESS_SERVICE_URL": svc.URL})
	field := func(item map[string]any, name string) map[string]any {
		fields, _ := item["fields"].(map[string]any)
		f, _ := fields[name].(map[string]any)
		return f
	}
	recognize := func(query string, page []byte) map[string]any {
		t.Helper()
		status, body := in.post(t, "/recognize?token=any&mode=recognize_only&doc_type=passport_registration"+query, "image", page)
		items, _ := body["items"].([]any)
		if status != http.StatusOK || len(items) != 1 {
			t.Fatalf("%s: %d %v", query, status, body)
		}
		return items[0].(map[string]any)
	}
	for _, tc := range []struct {
		typ, date string
	}{
		{"passport_registration_deregistered", "deregistration_date"},
		{"passport_registration_handwritten", "registration_date"},
	} {
		page, truth := registrationPage(t, tc.typ)
		item := recognize("", page)
		if item["doc_type"] != tc.typ || field(item, tc.date)["text"] != truth[tc.date] {
			t.Errorf("%s: answered %v, %s %v (want %q)", tc.typ, item["doc_type"], tc.date, field(item, tc.date)["text"], truth[tc.date])
		}
	}
	page, truth := registrationPage(t, "passport_registration")
	item := recognize("&normalization_fias=true", page)
	if item["doc_type"] != "passport_registration" || field(item, "registration_date")["text"] != truth["registration_date"] {
		t.Errorf("registration: %v", item)
	}
	if a := field(item, "issuing_authority"); a["text"] != truth["issuing_authority"] || a["source"] != "directory" {
		t.Errorf("issuing_authority %v, want %q from the directory", a, truth["issuing_authority"])
	}
	if a, q := field(item, "address"), called(); len(q) != 1 || a["text"] != "normalised: "+q[0] || a["source"] != "address_service" {
		t.Errorf("address %v after queries %q", a, q)
	}
	item = recognize("&use_internal_api=false", page)
	if a, q := field(item, "issuing_authority"), called(); a != nil || len(q) != 1 {
		t.Errorf("use_internal_api=false: issuing_authority %v; address service called %d times", a, len(q))
	}
	if a := field(item, "address"); a["text"] != truth["address"] || a["source"] != nil {
		t.Errorf("address without normalization_fias: %v, want %q as read", a, truth["address"])
	}
}
