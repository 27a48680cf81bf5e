package topology

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/apierr"
	"docsuite/pkg/licensed"
)

var hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

func errnoOf(c apierr.Code) int { return apierr.Lookup(c).Errno }

// pipelineTimeout is the PIPELINE_TIMEOUT of the topology under test:
// short, so a request stranded on a killed worker fails within the test.
const pipelineTimeout = 30

// TestTopology starts the production topology as separate processes and
// runs the API through nginx: sync, errors, async with priorities, license
// refusal, then kills a worker and a gateway under load and counts every
// accepted task. Run with TOPOLOGY=1 (make topology-test); TOPOLOGY_PORT
// pins nginx's port (e.g. 8080), TOPOLOGY_RATE and TOPOLOGY_LOAD_SECONDS
// shape the load.
func TestTopology(t *testing.T) {
	if os.Getenv("TOPOLOGY") == "" {
		t.Skip("set TOPOLOGY=1 to start the topology as processes (make topology-test)")
	}
	vendor := startVendor(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	c, err := Start(ctx, Options{
		Root: repoRoot(t), Dir: t.TempDir(), Port: envInt("TOPOLOGY_PORT", 0), Log: os.Stdout,
		Replicas: map[string]int{"gateway": 2, "classifier": 2},
		Env: map[string]string{
			"LOGURU_LEVEL": "INFO", "PIPELINE_TIMEOUT": strconv.Itoa(pipelineTimeout), "LICENSE_TOKEN": "topology-token",
			"DEV_ALLOW_NO_AVX512": "true", "JANITOR_INTERVAL": "10",
			// The topology test exercises wiring, queueing and failover,
			// and its load is sized for the pictures-only cost; the
			// PP-OCR reading (about 0.5 s of CPU a document) would leave
			// tasks behind PIPELINE_TIMEOUT on two cores. The all-in-one
			// end-to-end tests and the package tests run it.
			"TEXT_EVIDENCE": "false",
		},
		RoleEnv: map[string]map[string]string{
			"gateway": {"LICENSE_ENFORCE": "true", "ASYNC_RUNNERS": "2"},
			"license": {"LICENSE_URL": vendor.srv.URL + "/v1/license/check", "LICENSE_CA_FILE": vendor.caFile, "LICENSE_CHECK_INTERVAL": "3600"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range c.All() {
				fmt.Printf("---- log tail of %s (pid %d)\n%s\n", p.Name, p.Pid(), p.Tail(1500))
			}
		}
		c.Stop()
	})
	var names []string
	for _, p := range c.All() {
		names = append(names, p.Name)
	}
	fmt.Printf("topology: up in %.1fs at %s: %s (not built yet: %v)\n", time.Since(start).Seconds(), c.BaseURL, strings.Join(names, ", "), c.Skipped)

	// NATS runs the shipped configuration: the roles connected with the
	// credentials, and a client without them is refused.
	if anon, err := nats.Connect(c.NATSURL, nats.Name("topology-anonymous")); err == nil {
		anon.Close()
		t.Fatal("NATS accepted a client without credentials")
	} else if !errors.Is(err, nats.ErrAuthorization) {
		t.Fatalf("NATS without credentials: %v, want an authorization violation", err)
	}
	nc, err := nats.Connect(c.NATSURL, nats.Name("topology-test"), nats.UserInfo(c.NATSUser, c.NATSPassword))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	watch := watchTasks(t, nc)
	a := newAPI(c.BaseURL)

	t.Run("sync", func(t *testing.T) { testSync(t, a) })
	t.Run("nginx over HTTPS", func(t *testing.T) { testNginxTLS(t, c) })
	t.Run("builds", func(t *testing.T) { testBuilds(t, a) })
	t.Run("errors", func(t *testing.T) { testErrors(t, a) })
	t.Run("async priorities", func(t *testing.T) { testPriorities(t, a, watch) })
	t.Run("license refusal", func(t *testing.T) { testLicense(t, a, nc, vendor) })
	t.Run("kill under load", func(t *testing.T) { testKillUnderLoad(t, c, a, watch) })
	t.Run("nginx 502 without gateways", func(t *testing.T) {
		for _, p := range c.Procs("gateway") {
			p.Kill()
		}
		r, err := a.postFile("/pipelines/run/classify", "image", docJPEG(t, 800, 600, 1), nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.status != http.StatusBadGateway || r.errno() != errnoOf(apierr.BadGateway) || r.header.Get("X-Request-Id") == "" {
			t.Fatalf("with every gateway down: %d %s", r.status, r.raw)
		}
	})
}

func testSync(t *testing.T, a *api) {
	var lat []time.Duration
	for i := range 5 {
		img := docJPEG(t, 1200, 900, uint64(i))
		start := time.Now()
		r, err := a.postFile("/pipelines/run/classify?task_tags=topology", "image", img, map[string]string{"X-Request-Id": fmt.Sprintf("topology-sync-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		if r.status != http.StatusOK {
			t.Fatalf("sync classify: %d %s", r.status, r.raw)
		}
		if !hex32.MatchString(fmt.Sprint(r.body["task_id"])) {
			t.Errorf("task_id %v", r.body["task_id"])
		}
		if items, _ := r.body["items"].([]any); len(items) == 0 {
			t.Errorf("no items: %s", r.raw)
		}
		if got := r.header.Get("X-Request-Id"); got != fmt.Sprintf("topology-sync-%d", i) {
			t.Errorf("X-Request-Id %q not passed through", got)
		}
	}
	slices.Sort(lat)
	fmt.Printf("topology: sync classify through nginx, 5 requests of 1200x900 JPEG: median %v, max %v\n",
		lat[2].Round(time.Millisecond), lat[4].Round(time.Millisecond))
	r, err := a.get("/pipelines/run/classify")
	if err != nil {
		t.Fatal(err)
	}
	if r.header.Get("X-Request-Id") == "" || !hex32.MatchString(r.header.Get("X-Request-Id")) {
		t.Errorf("no generated X-Request-Id: %q", r.header.Get("X-Request-Id"))
	}
}

func testErrors(t *testing.T, a *api) {
	big := make([]byte, 33<<20)
	justOver := make([]byte, 30<<20+1024)
	copy(big, docJPEG(t, 400, 300, 9))
	copy(justOver, docJPEG(t, 400, 300, 9))
	cases := []struct {
		name   string
		send   func() (reply, error)
		status int
		errno  int
	}{
		{"413 from nginx (33 MB)", func() (reply, error) { return a.postFile("/pipelines/run/classify", "image", big, nil) }, 413, errnoOf(apierr.FileTooLarge)},
		{"413 from nginx (33 MB, Expect: 100-continue)", func() (reply, error) {
			return a.postFile("/pipelines/run/classify", "image", big, map[string]string{"Expect": "100-continue"})
		}, 413, errnoOf(apierr.FileTooLarge)},
		{"413 from nginx (33 MB, chunked)", func() (reply, error) { return postChunked(a, "/pipelines/run/classify", big) }, 413, errnoOf(apierr.FileTooLarge)},
		{"413 from nginx (2 MB body to /result)", func() (reply, error) {
			req, err := http.NewRequest(http.MethodGet, a.base+"/result/"+strings.Repeat("0", 32), bytes.NewReader(make([]byte, 2<<20)))
			if err != nil {
				return reply{}, err
			}
			return a.do(req)
		}, 413, errnoOf(apierr.FileTooLarge)},
		{"413 from the gateway (30 MB + 1 KB)", func() (reply, error) { return a.postFile("/pipelines/run/classify", "image", justOver, nil) }, 413, errnoOf(apierr.FileTooLarge)},
		{"415 under 1 KB", func() (reply, error) { return a.postFile("/pipelines/run/classify", "image", make([]byte, 200), nil) }, 415, errnoOf(apierr.FileTooSmall)},
		{"422 no image field", func() (reply, error) {
			return a.postFile("/pipelines/run/classify", "file", docJPEG(t, 400, 300, 2), nil)
		}, 422, errnoOf(apierr.ImageMissing)},
		{"422 not multipart", func() (reply, error) { return a.postRaw("/pipelines/run/classify", "text/plain", []byte("hello")) }, 422, errnoOf(apierr.NotMultipart)},
		{"422 bad parameter", func() (reply, error) {
			return a.postFile("/pipelines/run/classify?async=maybe", "image", docJPEG(t, 400, 300, 3), nil)
		}, 422, errnoOf(apierr.InvalidParameter)},
		{"404 unknown task", func() (reply, error) { return a.get("/result/" + strings.Repeat("0", 32)) }, 404, errnoOf(apierr.TaskNotFound)},
		{"405 wrong method", func() (reply, error) { return a.get("/pipelines/run/classify") }, 405, errnoOf(apierr.MethodNotAllowed)},
		{"/metrics not public", func() (reply, error) { return a.get("/metrics") }, 404, errnoOf(apierr.PathNotFound)},
		{"414 from nginx (9 KB query string)", func() (reply, error) {
			return a.get("/pipelines/run/classify?x=" + strings.Repeat("a", 9000))
		}, 414, errnoOf(apierr.URITooLong)},
		{"400 from nginx (9 KB header)", func() (reply, error) {
			req, err := http.NewRequest(http.MethodGet, a.base+"/healthcheck", nil)
			if err != nil {
				return reply{}, err
			}
			req.Header.Set("X-Padding", strings.Repeat("b", 9000))
			return a.do(req)
		}, 400, errnoOf(apierr.BadRequest)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.send()
			if err != nil {
				t.Fatal(err)
			}
			if r.status != tc.status || r.errno() != tc.errno {
				t.Fatalf("got %d errno %d: %.300s", r.status, r.errno(), r.raw)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			if _, ok := r.body["traceback"]; !ok || r.body["detail"] == nil {
				t.Errorf("not the error envelope: %s", r.raw)
			}
		})
	}
	for _, p := range []struct{ path, want string }{{"/docs", "text/html"}, {"/openapi.json", "application/json"}, {"/healthcheck", "application/json"}} {
		r, err := a.get(p.path)
		if err != nil {
			t.Fatal(err)
		}
		if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), p.want) {
			t.Errorf("%s: %d %q", p.path, r.status, r.header.Get("Content-Type"))
		}
	}
}

// testPriorities queues low-priority tasks, then one of priority 9, and
// counts how many of the earlier low ones finish after it.
func testPriorities(t *testing.T, a *api, w *taskWatch) {
	const lows = 40
	submit := func(prio int, data []byte) (string, error) {
		r, err := a.postFile(fmt.Sprintf("/pipelines/run/classify?async=true&priority=%d", prio), "image", data, nil)
		if err != nil || r.status != http.StatusOK {
			return "", fmt.Errorf("async accept: %v %d %s", err, r.status, r.raw)
		}
		id := fmt.Sprint(r.body["task_id"])
		if !hex32.MatchString(id) {
			return "", fmt.Errorf("task_id %q", id)
		}
		return id, nil
	}
	// The low tasks are uploaded at once so that a backlog builds up
	// faster than the runners drain it; the high one follows.
	low := make([]string, lows)
	errs := make([]error, lows)
	files := make([][]byte, lows)
	for i := range files {
		files[i] = docJPEG(t, 1600, 1200, uint64(100+i))
	}
	highFile := docJPEG(t, 1600, 1200, 999)
	var wg sync.WaitGroup
	for i := range lows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			low[i], errs[i] = submit(1, files[i])
		}()
	}
	wg.Wait()
	high, err := submit(9, highFile)
	if err := errors.Join(append(errs, err)...); err != nil {
		t.Fatal(err)
	}
	r, err := a.get("/result/" + low[lows-1])
	if err != nil {
		t.Fatal(err)
	}
	if r.status != http.StatusAccepted || r.errno() != errnoOf(apierr.TaskNotDone) {
		t.Logf("last low task already finished when first polled: %d", r.status)
	}
	all := append(slices.Clone(low), high)
	w.waitFinished(all, 3*time.Minute)
	done, failed, _ := w.snapshot()
	after := 0
	for _, id := range low {
		if len(done[id]) == 0 {
			t.Errorf("low task %s not done (failed: %+v)", id, failed[id].Error)
			continue
		}
		if len(done[high]) > 0 && done[id][0].order > done[high][0].order {
			after++
		}
	}
	if len(done[high]) == 0 {
		t.Fatalf("high-priority task not done (failed: %+v)", failed[high].Error)
	}
	fmt.Printf("topology: priorities: %d tasks of priority 1 queued, then 1 of priority 9: %d of the earlier ones finished after it\n", lows, after)
	if after == 0 {
		t.Error("the priority-9 task finished after every earlier priority-1 task")
	}
	for _, id := range all {
		r, err := a.get("/result/" + id)
		if err != nil || r.status != http.StatusOK || r.body["task_id"] != id {
			t.Errorf("result %s: %v %d %.200s", id, err, r.status, r.raw)
		}
	}
}

// testLicense switches the vendor's verdict, makes the daemon check at
// once, and expects the gateways to refuse with the matching 403.
func testLicense(t *testing.T, a *api, nc *nats.Conn, v *vendorServer) {
	recheck := func() {
		t.Helper()
		if _, err := nc.Request(licensed.CheckSubject, nil, 30*time.Second); err != nil {
			t.Fatalf("license check on demand: %v", err)
		}
	}
	img := docJPEG(t, 800, 600, 5)
	cases := []struct {
		name   string
		status int
		body   string
		want   int
		errno  int
	}{
		{"exhausted", 200, `{"valid":true,"requests_left":0}`, 403, errnoOf(apierr.LicenseExhausted)},
		{"expired", 200, expiredBody(), 403, errnoOf(apierr.LicenseExpired)},
		{"revoked token", 403, `{"valid":false,"reason":"revoked"}`, 403, errnoOf(apierr.LicenseInvalid)},
		{"valid again", 200, `{"valid":true,"requests_left":1000000}`, 200, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v.set(tc.status, tc.body)
			recheck()
			r, err := a.postFile("/pipelines/run/classify", "image", img, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.status != tc.want || (tc.errno != 0 && r.errno() != tc.errno) {
				t.Fatalf("got %d errno %d: %.300s", r.status, r.errno(), r.raw)
			}
			h, err := a.get("/healthcheck")
			if err != nil {
				t.Fatal(err)
			}
			if (tc.want == 200) != (h.status == 200) {
				t.Errorf("healthcheck %d while the license answers %d", h.status, tc.want)
			}
		})
	}
	u, checks := v.lastUsage()
	fmt.Printf("topology: license: %d checks reached the vendor; last report requests_total=%d\n", checks, u.RequestsTotal)
	if u.RequestsTotal == 0 {
		t.Error("the license report counts no requests although the gateways accepted some")
	}
}

// postChunked posts data as the image part of a multipart body of unknown
// length, so that the client sends it chunked: nginx learns its size only
// while it streams the body on.
func postChunked(a *api, path string, data []byte) (reply, error) {
	var buf bytes.Buffer
	buf.WriteString("--b\r\nContent-Disposition: form-data; name=\"image\"; filename=\"scan.jpg\"\r\n\r\n")
	buf.Write(data)
	buf.WriteString("\r\n--b--\r\n")
	req, err := http.NewRequest(http.MethodPost, a.base+path, io.MultiReader(&buf))
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	return a.do(req)
}

// testBuilds: /healthcheck names the build of the gateway and of each
// worker that answered its probe, and each is the identity of the sources
// here (scripts/build-id.sh), which make build, the images and this
// cluster's build compile into the binaries, so an admin can tell which
// build runs and see a half-done upgrade.
func testBuilds(t *testing.T, a *api) {
	out, err := exec.Command(filepath.Join(repoRoot(t), "scripts/build-id.sh")).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(out))
	h, err := a.get("/healthcheck")
	if err != nil {
		t.Fatal(err)
	}
	builds, _ := h.body["builds"].(map[string]any)
	if h.status != http.StatusOK || h.body["build"] != want || len(builds) < 4 {
		t.Fatalf("healthcheck %d, build %v, builds %v; want build %s", h.status, h.body["build"], builds, want)
	}
	for _, role := range []string{"gateway", "crop", "classify", "orient"} {
		if builds[role] != want {
			t.Errorf("builds[%s] = %v, want %s", role, builds[role], want)
		}
	}
}
