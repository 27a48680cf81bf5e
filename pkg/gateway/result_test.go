package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"docsuite/pkg/tasks"
	"docsuite/pkg/testutil"
)

// testJPEG is a noisy page well over the 1 KB minimum.
func testJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 320, 240))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7919 % 251)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imageBody is a multipart body of one image part holding data, and its
// content type.
func imageBody(t *testing.T, data []byte) (*bytes.Buffer, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("image", "scan.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return &body, mw.FormDataContentType()
}

// postImage posts one image part to url and decodes the JSON answer.
func postImage(t *testing.T, url string, data []byte) (int, map[string]any) {
	t.Helper()
	resp, out := postImageResp(t, url, data)
	return resp.StatusCode, out
}

// postImageResp posts one image part to url and returns the response
// (its body read) with the decoded JSON answer.
func postImageResp(t *testing.T, url string, data []byte) (*http.Response, map[string]any) {
	t.Helper()
	body, ct := imageBody(t, data)
	resp, err := http.Post(url, ct, body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %d %q is not JSON", url, resp.StatusCode, raw)
	}
	return resp, out
}

// TestFailedTaskAnswersItsError checks how /result answers an async task
// that failed: with the task's own error, status and errno. One that
// failed with a 503 (no stage worker running: dependency_down after its
// retries) is answered as every 503 is, with Retry-After (docs/api.md,
// API-DECISIONS). One that failed without a more specific error (here its
// input was gone from the store, as when the janitor removed it, so the
// check_fake read failed) is 500 task_failed, errno 26, with a traceback:
// it was 500 internal, errno 19, and errno 26 was never answered.
func TestFailedTaskAnswersItsError(t *testing.T) {
	tests := []struct {
		name       string
		query      string
		dropInput  bool
		wantStatus int
		wantErrno  int
		retryAfter bool
	}{
		{"no stage worker", "async=true", false, http.StatusServiceUnavailable, 22, true},
		{"input gone", "async=true&check_fake=true", true, http.StatusInternalServerError, 26, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, srv := newTestGateway(t)
			status, body := postImage(t, srv.URL+"/pipelines/run/classify?"+tc.query, testJPEG(t))
			id, _ := body["task_id"].(string)
			if status != http.StatusOK || id == "" {
				t.Fatalf("async classify: %d %v", status, body)
			}
			if tc.dropInput {
				if err := s.store.DeletePrefix(t.Context(), tasks.InputPrefix(id)); err != nil {
					t.Fatal(err)
				}
			}
			// The runners start once the task is queued (and its input
			// dropped), so it runs only then.
			go func() { _ = s.RunTasks(t.Context()) }()
			resp, raw := awaitResult(t, srv.URL, id)
			var e struct {
				Code, Errno int
				Traceback   *string
				Detail      []any
			}
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatalf("/result: %q is not JSON", raw)
			}
			if resp.StatusCode != tc.wantStatus || e.Code != tc.wantStatus || e.Errno != tc.wantErrno {
				t.Fatalf("/result: %d %s, want %d errno %d", resp.StatusCode, raw, tc.wantStatus, tc.wantErrno)
			}
			if e.Traceback == nil || *e.Traceback == "" || e.Detail == nil {
				t.Errorf("/result of a 5xx task: %s, want a traceback and a detail array", raw)
			}
			if got := resp.Header.Get("Retry-After") != ""; got != tc.retryAfter {
				t.Errorf("/result: Retry-After %q, want one: %v", resp.Header.Get("Retry-After"), tc.retryAfter)
			}
		})
	}
}

// awaitResult polls /result of a task until it is no longer 202 and
// returns that answer and its body.
func awaitResult(t *testing.T, base, id string) (*http.Response, []byte) {
	t.Helper()
	var resp *http.Response
	var raw []byte
	testutil.Eventually(t, 60*time.Second, func() error {
		r, err := http.Get(base + "/result/" + id)
		if err != nil {
			return err
		}
		raw, _ = io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode == http.StatusAccepted {
			return fmt.Errorf("task not done: %s", raw)
		}
		resp = r
		return nil
	})
	return resp, raw
}
