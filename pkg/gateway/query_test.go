package gateway

import (
	"net/http"
	"testing"
)

// TestUnreadableQueryIsRefused: a query string Go cannot read whole is a
// 422 invalid_parameter naming the parameter of the unreadable pair.
// url.URL.Query dropped such a pair without a word: dpi=%zz was rendered
// at the default 300 dpi, and async=true;priority=5 (a ; where & belongs)
// was answered synchronously, without its task_id to fetch.
func TestUnreadableQueryIsRefused(t *testing.T) {
	_, srv := newTestGateway(t)
	data := testJPEG(t)
	tests := []struct {
		name, path string
		param      string // "" for a query read as it is
	}{
		{"readable", "/pipelines/run/classify?async=true&dpi=200", ""},
		{"a bad escape in a value", "/pipelines/run/classify?async=true&dpi=%zz", "dpi"},
		{"a semicolon between parameters", "/pipelines/run/classify?async=true&priority=5;mode=classify_only", "priority"},
		{"async itself after a semicolon", "/pipelines/run/classify?return_crops=false;async=true", "return_crops"},
		{"a % at the end", "/pipelines/run/classify?async=true&mode=classify_only%", "mode"},
		{"recognize", "/pipelines/run/recognize?async=true&doc_type=passport_main%2", "doc_type"},
		{"a hosted path", "/classify?token=abc&async=true&quality=9%", "quality"},
		{"a bad escape in a name", "/pipelines/run/classify?async=true&%zz=1", "%zz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, out := postImageResp(t, srv.URL+tc.path, data)
			if tc.param == "" {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%d %v, want 200", resp.StatusCode, out)
				}
				return
			}
			if resp.StatusCode != http.StatusUnprocessableEntity || out["errno"] != float64(16) {
				t.Fatalf("%d %v, want 422 errno 16", resp.StatusCode, out)
			}
			detail, _ := out["detail"].([]any)
			if len(detail) != 1 {
				t.Fatalf("detail %v", out["detail"])
			}
			loc, _ := detail[0].(map[string]any)["loc"].([]any)
			if len(loc) != 2 || loc[0] != "query" || loc[1] != tc.param {
				t.Errorf("detail.loc %v, want [query %s]", loc, tc.param)
			}
		})
	}
}
