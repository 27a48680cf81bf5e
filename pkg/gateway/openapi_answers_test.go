package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/config"
	"docsuite/pkg/stages"
)

// TestOperationsListTheirSteps: the document's error statuses of an
// operation are those of its steps, with nothing of another's: no
// task_not_found or 202 on a method, no upload errors on /result.
func TestOperationsListTheirSteps(t *testing.T) {
	doc := OpenAPI()
	statuses := func(path, method string) []string {
		var out []string
		for s := range dig(doc, "paths", path, method, "responses").(obj) {
			out = append(out, s)
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		path, method string
		want         []string
	}{
		{"/pipelines/run/classify", "post", []string{"200", "400", "403", "413", "414", "415", "422", "500", "502", "503", "504"}},
		{"/classify", "post", []string{"200", "400", "403", "413", "414", "415", "422", "500", "502", "503", "504"}},
		{"/result/{task_id}", "get", []string{"200", "202", "400", "403", "404", "414", "422", "500", "502", "503", "504"}},
		{"/healthcheck", "get", []string{"200", "400", "414", "500", "502", "503", "504"}},
		{"/docs", "get", []string{"200", "400", "414", "500", "502", "504"}},
		{"/metrics", "get", []string{"200", "400", "500"}},
	}
	for _, tc := range cases {
		if got := statuses(tc.path, tc.method); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s lists %v, want %v", tc.method, tc.path, got, tc.want)
		}
	}
	describe := func(path, method, status string) string {
		d, _ := dig(doc, "paths", path, method, "responses", status, "description").(string)
		return d
	}
	for _, tc := range []struct {
		path, method, status string
		has, lacks           []string
	}{
		{"/pipelines/run/classify", "post", "403", []string{"errno 2 ", "errno 3 ", "errno 4 "}, []string{"errno 1 ", "errno 5 "}},
		{"/classify", "post", "403", []string{"errno 1 ", "errno 2 "}, []string{"errno 5 "}},
		{"/result/{task_id}", "get", "403", []string{"errno 1 ", "errno 5 "}, []string{"errno 2 "}},
		{"/result/{task_id}", "get", "422", []string{"errno 15 corrupt_file", "errno 17 ", "the error the task failed with"}, []string{"errno 12 ", "errno 13 ", "errno 16 "}},
		{"/result/{task_id}", "get", "500", []string{"errno 19 ", "errno 26 "}, nil},
		{"/pipelines/run/classify", "post", "500", []string{"errno 19 "}, []string{"errno 26 "}},
		{"/pipelines/run/classify", "post", "422", []string{"errno 15 corrupt_file: File cannot be decoded, or a PDF or DJVU page did not render within the renderer's time limit (60 s)",
			"a lower dpi renders it faster (synchronous requests", "errno 18 too_many_pixels: Page has too many pixels, or the file's pages together are over MAX_FILE_PIXELS"}, nil},
		{"/pipelines/run/classify", "post", "503", []string{"errno 21 ", "errno 22 ", "errno 23 ", "errno 24 "}, nil},
	} {
		d := describe(tc.path, tc.method, tc.status)
		for _, s := range tc.has {
			if !strings.Contains(d, s) {
				t.Errorf("%s %s %s: %q lacks %q", tc.method, tc.path, tc.status, d, s)
			}
		}
		for _, s := range tc.lacks {
			if strings.Contains(d, s) {
				t.Errorf("%s %s %s: %q names %q", tc.method, tc.path, tc.status, d, s)
			}
		}
	}
}

// answerLog sends requests to a test gateway and checks that each answer
// is one its operation documents: its status among the operation's
// responses and, for an error, its errno in that response's description.
type answerLog struct {
	t    *testing.T
	doc  obj
	base string
	// seen holds "METHOD PATH STATUS" of every answer checked.
	seen map[string]bool
}

// send makes the request and checks its answer against the operation op
// ("post /pipelines/run/classify"); it returns the status and the body.
func (l *answerLog) send(op string, req *http.Request) (int, map[string]any) {
	l.t.Helper()
	method, path, _ := strings.Cut(op, " ")
	ctx, cancel := context.WithTimeout(l.t.Context(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		l.t.Fatalf("%s: %v", op, err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	l.check(method, path, resp.StatusCode, body, raw)
	return resp.StatusCode, body
}

func (l *answerLog) check(method, path string, status int, body map[string]any, raw []byte) {
	l.t.Helper()
	l.seen[fmt.Sprintf("%s %s %d", method, path, status)] = true
	r, ok := dig(l.doc, "paths", path, method, "responses", fmt.Sprint(status)).(obj)
	if !ok {
		l.t.Errorf("%s %s answered %d, which the OpenAPI document does not list: %.200s", method, path, status, raw)
		return
	}
	if status < 300 || method == "head" {
		return
	}
	errno, _ := body["errno"].(float64)
	if d, _ := r["description"].(string); !strings.Contains(d, fmt.Sprintf("errno %d ", int(errno))) {
		l.t.Errorf("%s %s answered %d errno %v, which its %d response does not name: %q", method, path, status, errno, status, d)
	}
}

// request builds a request to the test gateway.
func (l *answerLog) request(method, path, contentType string, body []byte, header ...string) *http.Request {
	l.t.Helper()
	req, err := http.NewRequest(strings.ToUpper(method), l.base+path, bytes.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

// multipartBody is a multipart body of the parts given as name, file
// name, content (a part without a file name is a plain field).
func multipartBody(t *testing.T, parts ...[3]string) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p[1] != "" {
			w, err = mw.CreateFormFile(p[0], p[1])
		} else {
			w, err = mw.CreateFormField(p[0])
		}
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.WriteString(w, p[2])
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), mw.FormDataContentType()
}

// TestAnswersAreDocumented provokes the answers of every operation on a
// gateway whose crop worker finds every file corrupt (and with no other
// stage worker), then on one whose license is not valid, and checks that
// the OpenAPI document lists each: the operations' error lists are pinned
// to what the handlers answer from this side too.
func TestAnswersAreDocumented(t *testing.T) {
	s, srv := newTestGateway(t, func(c *config.Gateway) { c.MaxFileBytes = 64 << 10 })
	w, err := bus.Serve(s.nc, stages.Crop, bus.ServeOptions{Concurrency: 2, Timeout: 5 * time.Second,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
		func(context.Context, stages.CropRequest) (stages.CropReply, error) {
			return stages.CropReply{}, apierr.New(apierr.CorruptFile, "")
		})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	l := &answerLog{t: t, doc: OpenAPI(), base: srv.URL, seen: map[string]bool{}}
	jpg := string(testJPEG(t))
	image, ct := multipartBody(t, [3]string{"image", "scan.jpg", jpg})
	methods := []struct {
		path  string
		token []string
	}{
		{"/pipelines/run/classify", nil}, {"/pipelines/run/recognize", nil}, {"/pipelines/run/fraud", nil},
		{"/pipelines/run/fulltext", nil}, {"/classify", []string{"Token", "t1"}}, {"/recognize", []string{"Token", "t1"}},
	}
	ids := map[string]string{}
	for _, m := range methods {
		op := "post " + m.path
		post := func(query string, body []byte, contentType string) (int, map[string]any) {
			return l.send(op, l.request("post", m.path+query, contentType, body, m.token...))
		}
		postParts := func(parts ...[3]string) {
			b, c := multipartBody(t, parts...)
			post("", b, c)
		}
		post("", []byte("hello"), "text/plain")
		post("?async=maybe", image, ct)
		postParts([3]string{"image", "small.jpg", "tiny"})
		postParts([3]string{"image", "big.jpg", jpg + strings.Repeat("x", 64<<10)})
		postParts([3]string{"file", "scan.jpg", jpg})
		postParts([3]string{"image", "", "hello"})
		postParts([3]string{"async", "", "true"}, [3]string{"image", "scan.jpg", jpg})
		post("", image, ct)
		if _, b := post("?async=true", image, ct); b["task_id"] != nil {
			ids[m.path] = b["task_id"].(string)
		}
		if m.token != nil {
			l.send(op, l.request("post", m.path, ct, image))
		}
	}
	result := func(id string, header ...string) (int, map[string]any) {
		return l.send("get /result/{task_id}", l.request("get", "/result/"+id, "", nil, header...))
	}
	result("0123456789abcdef0123456789abcdef")
	result("nope")
	result(ids["/classify"])
	result(ids["/classify"], "Token", "t2")
	result(ids["/classify"], "Token", "t1")
	for _, p := range []string{"/healthcheck", "/docs", "/openapi.json"} {
		l.send("get "+p, l.request("get", p, "", nil))
		l.send("head "+p, l.request("head", p, "", nil))
	}
	l.send("get /metrics", l.request("get", "/metrics", "", nil))

	// The tasks run now: a file the cropper finds corrupt, and a method
	// whose worker is not running.
	go func() { _ = s.RunTasks(t.Context()) }()
	for _, p := range []string{"/pipelines/run/classify", "/pipelines/run/fulltext"} {
		resp, raw := awaitResult(t, srv.URL, ids[p])
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		l.check("get", "/result/{task_id}", resp.StatusCode, body, raw)
	}

	// A gateway enforcing a license that was never verified.
	_, srv2 := newTestGateway(t, func(c *config.Gateway) { c.LicenseEnforce = true })
	l.base = srv2.URL
	for _, m := range methods {
		l.send("post "+m.path, l.request("post", m.path, ct, image, m.token...))
	}
	l.send("get /result/{task_id}", l.request("get", "/result/0123456789abcdef0123456789abcdef", "", nil))

	// What the requests above must have provoked, so that the checks
	// stay meaningful.
	for _, want := range []string{
		"post /pipelines/run/classify 200", "post /pipelines/run/classify 403", "post /pipelines/run/classify 413",
		"post /pipelines/run/classify 415", "post /pipelines/run/classify 422", "post /pipelines/run/fulltext 503",
		"post /classify 403", "get /result/{task_id} 202", "get /result/{task_id} 403", "get /result/{task_id} 404",
		"get /result/{task_id} 422", "get /result/{task_id} 503", "get /healthcheck 503", "head /docs 200",
	} {
		if !l.seen[want] {
			t.Errorf("no answer %s; seen: %v", want, slices.Sorted(maps.Keys(l.seen)))
		}
	}
}
