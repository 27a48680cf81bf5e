package gateway

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestResultOfAHostedTaskNeedsItsToken: /result of a task posted to a
// hosted path with a key answers the task to that key only; read without
// any key it answers token_missing (errno 1), as the hosted path would,
// and with another key task_forbidden (errno 5).
func TestResultOfAHostedTaskNeedsItsToken(t *testing.T) {
	_, srv := newTestGateway(t)
	status, body := postImage(t, srv.URL+"/classify?async=true&token=key-one", testJPEG(t))
	id, _ := body["task_id"].(string)
	if status != http.StatusOK || id == "" {
		t.Fatalf("hosted async classify: %d %v", status, body)
	}
	tests := []struct {
		name       string
		query      string
		wantStatus int
		wantErrno  float64
	}{
		{"its own key", "?token=key-one", http.StatusAccepted, 9},
		{"no key", "", http.StatusForbidden, 1},
		{"another key", "?token=key-two", http.StatusForbidden, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Get(srv.URL + "/result/" + id + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var b map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&b); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.wantStatus || b["errno"] != tc.wantErrno {
				t.Errorf("%d %v, want %d errno %v", resp.StatusCode, b, tc.wantStatus, tc.wantErrno)
			}
		})
	}
}

// TestResultOfAnOnPremisesTaskIgnoresTokens: an on-premises path takes no
// token, so its task is read with or without one (a client library that
// attaches its token to every call must still get its results).
func TestResultOfAnOnPremisesTaskIgnoresTokens(t *testing.T) {
	_, srv := newTestGateway(t)
	status, body := postImage(t, srv.URL+"/pipelines/run/classify?async=true&token=abc", testJPEG(t))
	id, _ := body["task_id"].(string)
	if status != http.StatusOK || id == "" {
		t.Fatalf("on-premises async classify: %d %v", status, body)
	}
	for _, query := range []string{"", "?token=abc", "?token=another"} {
		t.Run("query "+query, func(t *testing.T) {
			resp, err := http.Get(srv.URL + "/result/" + id + query)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusForbidden {
				t.Errorf("403 for an on-premises task read with %q", query)
			}
		})
	}
}
