package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"docsuite/pkg/config"
	"docsuite/pkg/testutil"
)

// instance is an all-in-one started in-process for a test.
type instance struct {
	base string
	// client reaches base: http.DefaultClient, or one that trusts the
	// all-in-one's certificate when TLS_CERT_FILE is set.
	client *http.Client
	// stop cancels the all-in-one's context, as SIGTERM does, and waits for
	// it to return (once; the test's cleanup calls it too).
	stop func() error
}

// startAllInOne runs the real all-in-one (embedded NATS, folder store,
// every role, the real models) on a free port, configured the way a user
// would: through the environment. The port is free when chosen but may be
// taken before the all-in-one binds it (tests of other packages start
// servers at the same time); it then starts again on another. With
// TLS_CERT_FILE (a self-signed certificate) it is reached over HTTPS.
func startAllInOne(t *testing.T, env map[string]string) *instance {
	t.Helper()
	for try := 1; ; try++ {
		in, err := tryAllInOne(t, env)
		if err == nil {
			return in
		}
		if !errors.Is(err, syscall.EADDRINUSE) || try == 3 {
			t.Fatalf("all-in-one did not start: %v", err)
		}
	}
}

// tryAllInOne starts the all-in-one once; it returns an error when it
// stopped before answering (a port taken since it was chosen).
func tryAllInOne(t *testing.T, env map[string]string) (*instance, error) {
	t.Helper()
	dir := t.TempDir()
	root := testutil.RepoRoot()
	addr := fmt.Sprintf("127.0.0.1:%d", testutil.FreePort(t))
	defaults := map[string]string{
		"HTTP_ADDR": addr, "STORE_DIR": filepath.Join(dir, "objects"), "NATS_STORE_DIR": filepath.Join(dir, "nats"),
		"MODELS_DIR": filepath.Join(root, "models"), "ONNXRUNTIME_LIB": filepath.Join(root, ".cache/onnxruntime/libonnxruntime.so.1"),
		"LOGURU_LEVEL": "WARNING",
	}
	for k, v := range env {
		defaults[k] = v
	}
	for k, v := range defaults {
		t.Setenv(k, v)
	}
	var cfg config.AllInOne
	if err := config.Load(&cfg, ""); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	go func() { done <- run(ctx, cfg, log) }()
	var once sync.Once
	var stopErr error
	in := &instance{base: "http://" + addr, client: http.DefaultClient, stop: func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(30 * time.Second):
				stopErr = errors.New("did not stop within 30s")
			}
		})
		return stopErr
	}}
	if cert := defaults["TLS_CERT_FILE"]; cert != "" {
		c, err := trusting(cert)
		if err != nil {
			t.Fatal(err)
		}
		in.client, in.base = c, "https://"+addr
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			cancel()
			return nil, fmt.Errorf("stopped before answering: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
		resp, err := in.client.Get(in.base + "/openapi.json")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("all-in-one not answering within 30s: %v", err)
		}
	}
	t.Cleanup(func() {
		if err := in.stop(); err != nil {
			t.Errorf("all-in-one stopped with %v", err)
		}
	})
	return in, nil
}

// post sends a file in the multipart field (image unless field says
// otherwise) and decodes the JSON answer.
func (in *instance) post(t *testing.T, path, field string, data []byte) (int, map[string]any) {
	t.Helper()
	resp, err := in.send(path, field, data)
	if err != nil {
		t.Fatal(err)
	}
	return decodeBody(t, resp)
}

// send posts a file as post does and returns the answer unread; it is safe
// to call from several goroutines.
func (in *instance) send(path, field string, data []byte) (*http.Response, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if field != "" {
		w, err := mw.CreateFormFile(field, "upload.bin")
		if err != nil {
			return nil, err
		}
		_, _ = w.Write(data)
	}
	_ = mw.Close()
	return in.client.Post(in.base+path, mw.FormDataContentType(), &body)
}

// formPart is one part of a multipart body: a file when filename is set,
// else a text field.
type formPart struct {
	name, filename string
	data           []byte
}

// postForm posts a multipart body of the given parts in order.
func (in *instance) postForm(t *testing.T, path string, parts []formPart) (int, map[string]any) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.name, p.filename)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(p.data)
	}
	_ = mw.Close()
	resp, err := in.client.Post(in.base+path, mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	return decodeBody(t, resp)
}

func (in *instance) get(t *testing.T, path string) (int, map[string]any) {
	t.Helper()
	resp, err := in.client.Get(in.base + path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeBody(t, resp)
}

func decodeBody(t *testing.T, resp *http.Response) (int, map[string]any) {
	t.Helper()
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("status %d, body is not JSON: %.200s", resp.StatusCode, raw)
	}
	return resp.StatusCode, m
}

// scanJPEG draws a light card with dark text-like stripes on a darker
// table: a simple scene with one document-like rectangle.
func scanJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{90, 70, 50, 255})
		}
	}
	x0, y0, x1, y1 := w/6, h/5, w*5/6, h*4/5
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c := color.RGBA{240, 236, 225, 255}
			if (y-y0)%24 < 6 && (x-x0)%200 < 150 && x > x0+40 && x < x1-40 {
				c = color.RGBA{40, 40, 60, 255}
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

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestSyncClassifyAnswersTheContract(t *testing.T) {
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/classify?task_tags=batch-7", "image", scanJPEG(t, 1200, 900))
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, body)
	}
	if !hex32.MatchString(fmt.Sprint(body["task_id"])) {
		t.Errorf("task_id %v", body["task_id"])
	}
	if body["pages_count"] != 1.0 || body["page_count"] != 1.0 {
		t.Errorf("page counts %v %v", body["pages_count"], body["page_count"])
	}
	items, _ := body["items"].([]any)
	if len(items) == 0 || body["docs_count"] != float64(len(items)) {
		t.Fatalf("items %d, docs_count %v", len(items), body["docs_count"])
	}
	if tags, _ := body["task_tags"].([]any); len(tags) != 1 || tags[0] != "batch-7" {
		t.Errorf("task_tags %v", body["task_tags"])
	}
	item := items[0].(map[string]any)
	doc := item["document"].(map[string]any)
	if coords, _ := doc["coords"].([]any); len(coords) != 4 {
		t.Errorf("coords %v", doc["coords"])
	}
	if c, _ := doc["confidence"].(float64); c < 0 || c > 1 {
		t.Errorf("confidence %v", doc["confidence"])
	}
	if r, _ := doc["rotation"].(float64); r < 0 || r > 7 {
		t.Errorf("rotation %v", doc["rotation"])
	}
	if doc["page"] != 1.0 || doc["type"] == "" {
		t.Errorf("document %v", doc)
	}
	for _, k := range []string{"image_exposure", "image_blured", "low_image_resolution", "low_image_weight"} {
		if _, ok := item[k]; !ok {
			t.Errorf("item lacks %s", k)
		}
	}
	if crop, _ := item["crop"].(string); len(crop) < 100 || crop[:23] != "data:image/jpeg;base64," {
		t.Errorf("crop is not a JPEG data URI: %.40s", crop)
	}
	if _, ok := body["fake"]; ok {
		t.Error("fake present without check_fake")
	}
	// return_crops=false drops the crop; check_fake=true adds fake.
	_, body = in.post(t, "/pipelines/run/classify?return_crops=false&check_fake=true", "image", scanJPEG(t, 1200, 900))
	item = body["items"].([]any)[0].(map[string]any)
	if _, ok := item["crop"]; ok {
		t.Error("crop returned with return_crops=false")
	}
	if body["fake"] != false {
		t.Errorf("fake = %v for an untouched generated JPEG", body["fake"])
	}
}

func TestAsyncClassifyGoes202Then200(t *testing.T) {
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/classify?async=true&priority=3", "image", scanJPEG(t, 1600, 1200))
	id := fmt.Sprint(body["task_id"])
	if status != http.StatusOK || !hex32.MatchString(id) {
		t.Fatalf("accept: %d %v", status, body)
	}
	saw202 := false
	var final map[string]any
	testutil.Eventually(t, 60*time.Second, func() error {
		s, b := in.get(t, "/result/"+id)
		switch s {
		case http.StatusAccepted:
			saw202 = true
			if b["errno"] != 9.0 || b["task_id"] != id {
				t.Errorf("202 body %v", b)
			}
			return fmt.Errorf("not done")
		case http.StatusOK:
			final = b
			return nil
		}
		t.Fatalf("result status %d: %v", s, b)
		return nil
	})
	if final["task_id"] != id || len(final["items"].([]any)) == 0 {
		t.Errorf("final body %v", final)
	}
	// The id upper-cased names the same task.
	if s, b := in.get(t, "/result/"+strings.ToUpper(id)); s != http.StatusOK || b["task_id"] != id {
		t.Errorf("upper-case id: %d %v", s, b)
	}
	// An on-premises task has no owner: a token sent along (a client
	// library attaching one to every call) changes nothing.
	if s, b := in.get(t, "/result/"+id+"?token=someone-else"); s != http.StatusOK || b["task_id"] != id {
		t.Errorf("with a token: %d %v", s, b)
	}
	_ = saw202 // a fast machine may finish before the first poll; the 202 body is checked whenever seen
}

// TestInternalAddressServesMetricsAndProfiles: METRICS_ADDR gives the
// all-in-one, like each worker role, an internal port with /healthz,
// /metrics (the stages' histograms once a request went through) and the
// pprof profiles an admin takes when a stage is slow.
func TestInternalAddressServesMetricsAndProfiles(t *testing.T) {
	internal := fmt.Sprintf("127.0.0.1:%d", testutil.FreePort(t))
	in := startAllInOne(t, map[string]string{"METRICS_ADDR": internal})
	if code, _ := in.post(t, "/pipelines/run/classify", "image", scanJPEG(t, 1200, 900)); code != http.StatusOK {
		t.Fatalf("classify answered %d", code)
	}
	for _, tc := range []struct{ path, want string }{
		{"/healthz", `"success":true`},
		{"/metrics", "docsuite_stage_handle_seconds"},
		{"/debug/pprof/", "goroutine"},
	} {
		resp, err := http.Get("http://" + internal + tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d, want 200 with %q", tc.path, resp.StatusCode, tc.want)
		}
	}
}

// decodeCrop is a returned crop, a data:image/jpeg;base64 URI, decoded;
// the test fails when it is not one.
func decodeCrop(t *testing.T, uri string) image.Image {
	t.Helper()
	const prefix = "data:image/jpeg;base64,"
	if !strings.HasPrefix(uri, prefix) {
		t.Fatalf("crop %.40q is not a JPEG data URI", uri)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, prefix))
	if err != nil {
		t.Fatalf("crop: %v", err)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("crop: %v", err)
	}
	return img
}
