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
	return resp.StatusCode, out
}

// TestFailedTaskKeeps503Contract: an async task that fails with a 503
// (here: no stage worker running, dependency_down after its retries) is
// answered by /result as every 503 is, with Retry-After (docs/api.md,
// API-DECISIONS: 503 with Retry-After).
func TestFailedTaskKeeps503Contract(t *testing.T) {
	s, srv := newTestGateway(t)
	go func() { _ = s.RunTasks(t.Context()) }()
	status, body := postImage(t, srv.URL+"/pipelines/run/classify?async=true", testJPEG(t))
	id, _ := body["task_id"].(string)
	if status != http.StatusOK || id == "" {
		t.Fatalf("async classify: %d %v", status, body)
	}
	var resp *http.Response
	var raw []byte
	testutil.Eventually(t, 60*time.Second, func() error {
		r, err := http.Get(srv.URL + "/result/" + id)
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
	var e struct {
		Code, Errno int
		Detail      []any
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("/result: %q is not JSON", raw)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || e.Code != http.StatusServiceUnavailable || e.Errno != 22 {
		t.Fatalf("/result of a task without workers: %d %s, want 503 errno 22", resp.StatusCode, raw)
	}
	if resp.Header.Get("Retry-After") == "" {
		t.Errorf("/result answered 503 without Retry-After: %v", resp.Header)
	}
}
