package topology

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
	"docsuite/tools/envdoc/envvars"
)

func readFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNginxErrorPages: the answers nginx makes itself are the API's error
// envelope with the catalogue's errno, byte for byte what the gateway
// would write.
func TestNginxErrorPages(t *testing.T) {
	conf := readFile(t, "deploy/nginx/docsuite.conf")
	cases := []struct {
		status int
		code   apierr.Code
	}{
		{413, apierr.FileTooLarge},
		{502, apierr.BadGateway},
		{503, apierr.Overloaded},
		{504, apierr.GatewayTimeout},
		{404, apierr.PathNotFound},
		{400, apierr.BadRequest},
		{414, apierr.URITooLong},
	}
	for _, tc := range cases {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			page := regexp.MustCompile(`error_page ` + strconv.Itoa(tc.status) + ` (@\w+|/[\w./]+);`).FindStringSubmatch(conf)
			if page == nil {
				t.Fatalf("no error_page %d", tc.status)
			}
			loc := regexp.MustCompile(`(?s)location (?:= )?` + regexp.QuoteMeta(page[1]) + ` \{(.*?)\n    \}`).FindStringSubmatch(conf)
			if loc == nil {
				t.Fatalf("no location %s", page[1])
			}
			ret := regexp.MustCompile(`return (\d+) '([^']*)';`).FindStringSubmatch(loc[1])
			if ret == nil || ret[1] != strconv.Itoa(tc.status) {
				t.Fatalf("location %s does not return %d: %v", page[1], tc.status, ret)
			}
			want, err := json.Marshal(apierr.New(tc.code, "").Envelope())
			if err != nil {
				t.Fatal(err)
			}
			if ret[2] != string(want) {
				t.Errorf("body %s\nwant %s", ret[2], want)
			}
			if !strings.Contains(loc[1], "default_type application/json;") {
				t.Error("not served as application/json")
			}
		})
	}
}

// TestNginxLimits: uploads of 30 MB pass with headroom and stream
// unbuffered; nginx waits longer than PIPELINE_TIMEOUT; /metrics stays
// internal; request ids flow both ways.
func TestNginxLimits(t *testing.T) {
	conf := readFile(t, "deploy/nginx/docsuite.conf")
	var gw config.Gateway
	if err := config.Load(&gw, ""); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^    client_max_body_size (\d+)m;`).FindStringSubmatch(conf)
	if m == nil {
		t.Fatal("no server-level client_max_body_size in megabytes")
	}
	if mb, _ := strconv.ParseInt(m[1], 10, 64); mb<<20 < gw.MaxFileBytes+(1<<20) {
		t.Errorf("client_max_body_size %sm leaves no headroom over MAX_FILE_BYTES=%d", m[1], gw.MaxFileBytes)
	}
	// The settings table tells operators that nginx caps MAX_FILE_BYTES
	// in the compose deployment, and at what.
	for _, v := range config.Vars(&gw) {
		if v.Name == "MAX_FILE_BYTES" && (!strings.Contains(v.Doc, "client_max_body_size") || !strings.Contains(v.Doc, m[1]+" MB")) {
			t.Errorf("MAX_FILE_BYTES's doc does not name nginx's client_max_body_size of %s MB: %q", m[1], v.Doc)
		}
	}
	read := regexp.MustCompile(`proxy_read_timeout (\d+)s;`).FindStringSubmatch(conf)
	if read == nil {
		t.Fatal("no proxy_read_timeout")
	}
	if s, _ := strconv.Atoi(read[1]); s <= gw.PipelineTimeout {
		t.Errorf("proxy_read_timeout %ss does not exceed PIPELINE_TIMEOUT=%d", read[1], gw.PipelineTimeout)
	}
	for _, want := range []string{
		"proxy_request_buffering off;",
		"location /pipelines/run/ {",
		"location = /docs {",
		"location = /openapi.json {",
		"location = /metrics {\n        return 404;",
		"proxy_set_header X-Request-Id $docsuite_request_id;",
		"add_header X-Request-Id $docsuite_request_id always;",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("docsuite.conf lacks %q", want)
		}
	}
}

// TestNginxConfigParses renders deploy/nginx the way the topology test
// does and asks Debian's nginx to check it.
func TestNginxConfigParses(t *testing.T) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx"
		if _, err := os.Stat(bin); err != nil {
			t.Skip("nginx not installed")
		}
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	if err := os.Mkdir(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := RenderNginx(repoRoot(t), conf, "127.0.0.1:18080", []string{"127.0.0.1:18081", "127.0.0.1:18082", "127.0.0.1:18083"}, ""); err != nil {
		t.Fatal(err)
	}
	up, err := os.ReadFile(filepath.Join(conf, "upstream.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(up), "server 127.0.0.1:1808"); n != 3 || strings.Contains(string(up), "gateway-") {
		t.Fatalf("rendered upstream.conf:\n%s", up)
	}
	out, err := exec.Command(bin, "-t", "-p", dir+"/", "-c", filepath.Join(conf, "nginx.conf"), "-e", filepath.Join(dir, "error.log")).CombinedOutput()
	if err != nil {
		t.Fatalf("nginx -t: %v\n%s", err, out)
	}
}

// TestNATSConfigParses asks Debian's nats-server to check both NATS
// configurations.
func TestNATSConfigParses(t *testing.T) {
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server not installed")
	}
	for _, f := range []string{"nats.conf", "nats-cluster.conf"} {
		cmd := exec.Command(bin, "-t", "-c", filepath.Join(repoRoot(t), "deploy/nats", f))
		cmd.Env = append(os.Environ(), "NATS_SERVER_NAME=check", "NATS_JETSTREAM_DIR="+t.TempDir(),
			"NATS_USER=docsuite", "NATS_PASSWORD=check-password", "NATS_LICENSE_PASSWORD=check-license-password")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
		// The credentials are required: without them NATS does not start.
		cmd = exec.Command(bin, "-t", "-c", filepath.Join(repoRoot(t), "deploy/nats", f))
		cmd.Env = append(os.Environ(), "NATS_SERVER_NAME=check", "NATS_JETSTREAM_DIR="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "NATS_USER") {
			t.Errorf("%s without NATS_USER: %v\n%s", f, err, out)
		}
	}
}

// dockerTargets lists the named stages of the Dockerfile.
func dockerTargets(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^FROM \S+ AS (\S+)$`).FindAllStringSubmatch(readFile(t, "Dockerfile"), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDockerfile: Debian 12 bases, unprivileged users, the app image with
// models and ONNX Runtime, and the same pinned MinIO and ONNX Runtime as
// the install scripts.
func TestDockerfile(t *testing.T) {
	df := readFile(t, "Dockerfile")
	for _, want := range []string{
		"ARG DEBIAN_IMAGE=debian:12-slim", "ARG GO_IMAGE=golang:1.26-bookworm",
		"COPY --from=build /src/models/ /opt/docsuite/models/",
		"/opt/docsuite/lib/libonnxruntime.so.1",
	} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// The env template tells operators which defaults the image overrides.
	for _, iv := range envvars.ImageVars() {
		if !regexp.MustCompile(`(?m)^(ENV |\s+)` + iv.Name + `=` + regexp.QuoteMeta(iv.Value) + `( |$)`).MatchString(df) {
			t.Errorf("Dockerfile does not set %s=%s, as deploy/compose/docsuite.env.example says", iv.Name, iv.Value)
		}
	}
	stages := regexp.MustCompile(`(?m)^FROM `).Split(df, -1)[1:]
	for _, st := range stages {
		name := strings.Fields(st)[2]
		if strings.HasSuffix(name, "build") {
			continue
		}
		user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(st)
		if user == nil || strings.HasPrefix(user[1], "0") || strings.HasPrefix(user[1], "root") {
			t.Errorf("stage %s does not run as an unprivileged user: %v", name, user)
		}
	}
	pins := []struct{ script, scriptRe, dockerRe string }{
		{"scripts/install-minio.sh", `(?m)^version="([^"]+)"`, `ARG MINIO_VERSION=(\S+)`},
		{"scripts/install-onnxruntime.sh", `(?m)^want=([0-9a-f]{64})`, `ARG ORT_SHA256=([0-9a-f]{64})`},
	}
	for _, p := range pins {
		if _, err := os.Stat(filepath.Join(repoRoot(t), p.script)); err != nil {
			t.Logf("%s not present; pin not compared", p.script)
			continue
		}
		s := regexp.MustCompile(p.scriptRe).FindStringSubmatch(readFile(t, p.script))
		d := regexp.MustCompile(p.dockerRe).FindStringSubmatch(df)
		if s == nil || d == nil || s[1] != d[1] {
			t.Errorf("pin of %s differs from the Dockerfile: %v vs %v", p.script, s, d)
		}
	}
}
