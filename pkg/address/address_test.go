package address_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/address"
	"docsuite/pkg/extract"
)

// A real HTTP server stands for the address service; the client sends the
// address read and the field takes the service's form, or stays as read
// when the service fails.
func TestNormalizeAddress(t *testing.T) {
	const read = "ГОР. ТВЕРЬ, УЛ. ЛЕНИНА, Д. 5, КВ. 3"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct{ Query string }
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&q) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		switch {
		case strings.Contains(q.Query, "ТВЕРЬ"):
			_ = json.NewEncoder(w).Encode(map[string]string{"value": "г Тверь, ул Ленина, д 5, кв 3", "fias_id": "x"})
		case strings.Contains(q.Query, "МЕДЛЕННО"):
			time.Sleep(300 * time.Millisecond)
			_, _ = w.Write([]byte(`{"value": "late"}`))
		case strings.Contains(q.Query, "ЛОМАНО"):
			_, _ = w.Write([]byte(`{"value": `))
		case strings.Contains(q.Query, "ОШИБКА"):
			http.Error(w, "down", http.StatusBadGateway)
		default:
			_, _ = w.Write([]byte(`{"value": ""}`))
		}
	}))
	defer srv.Close()
	c := address.New(srv.URL, 100*time.Millisecond)
	for _, tc := range []struct {
		name, in, want, source string
		wantErr                bool
	}{
		{"normalised", read, "г Тверь, ул Ленина, д 5, кв 3", "address_service", false},
		{"not found", "НИГДЕ", "НИГДЕ", "", false},
		{"timeout", "МЕДЛЕННО", "МЕДЛЕННО", "", true},
		{"malformed answer", "ЛОМАНО", "ЛОМАНО", "", true},
		{"service error", "ОШИБКА", "ОШИБКА", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := extract.Fields{"address": {Text: tc.in, Confidence: 0.8}}
			err := extract.NormalizeAddress(context.Background(), f, c)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if got := f["address"]; got.Text != tc.want || got.Source != tc.source || got.Confidence != 0.8 {
				t.Errorf("got %+v, want %q from %q", got, tc.want, tc.source)
			}
		})
	}
	// Not configured: no client, nothing called, the field as read.
	if address.New("", time.Second) != nil {
		t.Fatal("a client without a URL")
	}
	f := extract.Fields{"address": {Text: read}}
	if err := extract.NormalizeAddress(context.Background(), f, nil); err != nil || f["address"].Text != read {
		t.Errorf("unconfigured: %v %+v", err, f["address"])
	}
	// Unreachable service: an error, the field as read.
	dead := address.New("http://127.0.0.1:1/", 200*time.Millisecond)
	if err := extract.NormalizeAddress(context.Background(), f, dead); err == nil || f["address"].Text != read {
		t.Errorf("unreachable: %v %+v", err, f["address"])
	}
}
