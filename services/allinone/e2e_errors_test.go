package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/testutil"
)

// TestErrorTable walks the seed's error table through the real service:
// each row answers the JSON envelope with its status and catalogue errno.
func TestErrorTable(t *testing.T) {
	in := startAllInOne(t, nil)
	big := make([]byte, 31<<20)
	_, _ = rand.Read(big)
	text := []byte(strings.Repeat("this is plain text, not an image. ", 64))
	tests := []struct {
		name      string
		do        func() (int, map[string]any)
		status    int
		errno     float64
		detailLoc string
	}{
		{"unknown task", func() (int, map[string]any) { return in.get(t, "/result/0123456789abcdef0123456789abcdef") }, 404, 8, ""},
		{"result of a sync answer", func() (int, map[string]any) {
			s, b := in.post(t, "/pipelines/run/classify?return_crops=false", "image", scanJPEG(t, 800, 600))
			id, _ := b["task_id"].(string)
			if s != 200 || id == "" {
				t.Fatalf("sync classify: %d %v", s, b)
			}
			s, b = in.get(t, "/result/"+id)
			if msg, _ := b["message"].(string); !strings.Contains(msg, "answered synchronously") {
				t.Errorf("message %q does not say the task was answered synchronously", msg)
			}
			return s, b
		}, 404, 8, ""},
		{"malformed task id", func() (int, map[string]any) { return in.get(t, "/result/nope") }, 404, 8, ""},
		{"unknown path", func() (int, map[string]any) { return in.get(t, "/pipelines/run/teleport") }, 404, 6, ""},
		{"wrong method", func() (int, map[string]any) { return in.get(t, "/pipelines/run/classify") }, 405, 7, ""},
		// A trailing slash is no redirect (an empty, non-JSON answer
		// that clients follow or not as they please) but an unknown path.
		{"method path with a trailing slash", func() (int, map[string]any) {
			return in.post(t, "/pipelines/run/classify/", "image", scanJPEG(t, 400, 300))
		}, 404, 6, ""},
		{"health path with a trailing slash", func() (int, map[string]any) { return in.get(t, "/healthcheck/") }, 404, 6, ""},
		{"file over 30 MB", func() (int, map[string]any) { return in.post(t, "/pipelines/run/classify", "image", big) }, 413, 10, ""},
		{"file under 1 KB", func() (int, map[string]any) { return in.post(t, "/pipelines/run/classify", "image", []byte("tiny")) }, 415, 11, ""},
		{"no image field", func() (int, map[string]any) { return in.post(t, "/pipelines/run/classify", "", nil) }, 422, 12, "image"},
		{"image in another field", func() (int, map[string]any) {
			return in.post(t, "/pipelines/run/classify", "file", scanJPEG(t, 400, 300))
		}, 422, 12, "image"},
		{"text instead of an image", func() (int, map[string]any) { return in.post(t, "/pipelines/run/classify", "image", text) }, 422, 14, "image"},
		{"bad parameter", func() (int, map[string]any) {
			return in.post(t, "/pipelines/run/classify?dpi=0", "image", scanJPEG(t, 400, 300))
		}, 422, 16, "dpi"},
		{"parameter sent as a form field before the image", func() (int, map[string]any) {
			return in.postForm(t, "/pipelines/run/classify", []formPart{{"async", "", []byte("true")}, {"image", "scan.jpg", scanJPEG(t, 400, 300)}})
		}, 422, 16, "async"},
		{"parameter sent as a form field after the image", func() (int, map[string]any) {
			return in.postForm(t, "/pipelines/run/recognize", []formPart{{"image", "scan.jpg", scanJPEG(t, 400, 300)}, {"doc_type", "", []byte("passport_main")}})
		}, 422, 16, "doc_type"},
		{"two files in one request", func() (int, map[string]any) {
			return in.postForm(t, "/pipelines/run/classify", []formPart{{"image", "a.jpg", scanJPEG(t, 400, 300)}, {"image", "b.jpg", scanJPEG(t, 500, 300)}})
		}, 422, 16, "image"},
		{"unknown doc_type", func() (int, map[string]any) {
			return in.post(t, "/pipelines/run/classify?doc_type=passport_main,unicorn", "image", scanJPEG(t, 400, 300))
		}, 422, 16, "doc_type"},
		{"not multipart", func() (int, map[string]any) {
			resp, err := http.Post(in.base+"/pipelines/run/classify", "application/json", bytes.NewReader([]byte(`{"image":"x"}`)))
			if err != nil {
				t.Fatal(err)
			}
			return decodeBody(t, resp)
		}, 422, 13, "Content-Type"},
		{"hosted path without token", func() (int, map[string]any) { return in.post(t, "/classify", "image", scanJPEG(t, 400, 300)) }, 403, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := tc.do()
			if status != tc.status || body["code"] != float64(tc.status) || body["errno"] != tc.errno {
				t.Fatalf("got %d %v, want %d errno %v", status, body, tc.status, tc.errno)
			}
			if _, ok := body["message"].(string); !ok {
				t.Error("message missing")
			}
			if _, ok := body["traceback"]; !ok {
				t.Error("traceback key missing")
			}
			detail, ok := body["detail"].([]any)
			if !ok {
				t.Fatalf("detail is not an array: %v", body["detail"])
			}
			if tc.detailLoc != "" {
				if len(detail) == 0 || !strings.Contains(toString(detail[0].(map[string]any)["loc"]), tc.detailLoc) {
					t.Errorf("detail.loc does not name %s: %v", tc.detailLoc, detail)
				}
			}
		})
	}
	// The service keeps serving after all of that.
	if s, b := in.post(t, "/pipelines/run/classify", "image", scanJPEG(t, 800, 600)); s != 200 {
		t.Errorf("after errors: %d %v", s, b)
	}
}

// TestMissingModelIs503 starts an installation whose models directory is
// empty: classification must answer 503 model_not_loaded, never a guess,
// and the health check must say which model is missing.
func TestMissingModelIs503(t *testing.T) {
	in := startAllInOne(t, map[string]string{"MODELS_DIR": t.TempDir()})
	status, body := in.post(t, "/pipelines/run/classify", "image", scanJPEG(t, 800, 600))
	if status != http.StatusServiceUnavailable || body["errno"] != 23.0 {
		t.Fatalf("classify without a model: %d %v", status, body)
	}
	status, body = in.get(t, "/healthcheck")
	if status != http.StatusServiceUnavailable || body["success"] != false {
		t.Fatalf("healthcheck without a model: %d %v", status, body)
	}
}

func TestHealthDocsAndMetrics(t *testing.T) {
	in := startAllInOne(t, nil)
	// 503 while the models load, then 200.
	testutil.Eventually(t, 60*time.Second, func() error {
		status, body := in.get(t, "/healthcheck")
		if status != http.StatusOK || body["success"] != true || body["version"] == "" {
			return fmt.Errorf("healthcheck: %d %v", status, body)
		}
		return nil
	})
	// The optional workers are reported too; the all-in-one runs them.
	testutil.Eventually(t, 60*time.Second, func() error {
		_, body := in.get(t, "/healthcheck")
		checks, _ := body["checks"].(map[string]any)
		for _, w := range []string{"ocr", "fraud"} {
			if checks[w] != "ok" {
				return fmt.Errorf("healthcheck checks %s: %v", w, checks[w])
			}
		}
		return nil
	})
	// Load balancers probe with HEAD too.
	head, err := http.Head(in.base + "/healthcheck")
	if err != nil {
		t.Fatal(err)
	}
	head.Body.Close()
	if head.StatusCode != http.StatusOK {
		t.Errorf("HEAD /healthcheck: %d", head.StatusCode)
	}
	status, body := in.get(t, "/openapi.json")
	paths, _ := body["paths"].(map[string]any)
	for _, p := range []string{"/pipelines/run/classify", "/pipelines/run/fraud", "/pipelines/run/fulltext", "/pipelines/run/recognize", "/classify", "/recognize", "/result/{task_id}", "/healthcheck"} {
		if _, ok := paths[p]; !ok || status != 200 {
			t.Errorf("openapi lacks %s", p)
		}
	}
	for path, want := range map[string]string{"/docs": "swagger-ui", "/docs/swagger-ui-bundle.js": "SwaggerUIBundle", "/metrics": "docsuite_http_requests_total"} {
		resp, err := http.Get(in.base + path)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(buf.String(), want) {
			t.Errorf("%s: %d, %q not found", path, resp.StatusCode, want)
		}
	}
}

func toString(v any) string {
	var b strings.Builder
	for _, x := range v.([]any) {
		b.WriteString(x.(string) + " ")
	}
	return b.String()
}
