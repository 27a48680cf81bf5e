package topology

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"docsuite/tools/envdoc/envvars"
)

// repoRoot is the repository root seen from this package's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// loadYAML parses a compose file (merge keys resolved) into a generic map.
func loadYAML(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// dig walks nested maps by keys; nil when a key is missing.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func services(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	s, ok := m["services"].(map[string]any)
	if !ok {
		t.Fatal("no services")
	}
	return s
}

// roleVars maps each role to the variables it reads.
func roleVars() map[string][]string {
	out := map[string][]string{}
	for _, r := range envvars.Roles() {
		out[r.Name] = envvars.RoleVars(r)
	}
	return out
}

// appRole returns the role a docsuite app service runs, "" for other
// services (nginx, nats, minio).
func appRole(t *testing.T, svc any) string {
	t.Helper()
	img, _ := dig(svc, "image").(string)
	if !strings.HasPrefix(img, "docsuite/app:") {
		return ""
	}
	cmd, _ := dig(svc, "command").([]any)
	if len(cmd) == 0 {
		t.Fatalf("app service without a command naming its role: %v", svc)
	}
	return fmt.Sprint(cmd[0])
}

func envKeys(svc any) []string {
	var keys []string
	if m, ok := dig(svc, "environment").(map[string]any); ok {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// keptOut are the env file's secrets that docker-compose.yml blanks on the
// containers that must not hold them (env_file hands every container the
// whole file): the license daemon's NATS password, the only one that may
// write the license verdict.
var keptOut = map[string]bool{"NATS_LICENSE_PASSWORD": true}

// TestComposeVariablesExist: every variable docker-compose.yml (and the
// GPU override) sets on a docsuite container is read by that role, but for
// the secrets it blanks (keptOut); only the license daemon holds
// NATS_LICENSE_PASSWORD.
func TestComposeVariablesExist(t *testing.T) {
	vars := roleVars()
	base := services(t, loadYAML(t, "docker-compose.yml"))
	roleOf := map[string]string{}
	for name, svc := range base {
		role := appRole(t, svc)
		if role == "" {
			continue
		}
		roleOf[name] = role
		if _, ok := vars[role]; !ok {
			t.Errorf("service %s runs %q, which is no role", name, role)
			continue
		}
		if _, err := os.Stat(filepath.Join(repoRoot(t), "services", role)); err != nil {
			t.Errorf("service %s: %v", name, err)
		}
		for _, k := range envKeys(svc) {
			if keptOut[k] && dig(svc, "environment", k) == "" {
				continue
			}
			if !slices.Contains(vars[role], k) {
				t.Errorf("service %s sets %s, which role %s does not read", name, k, role)
			}
		}
		if role != "license" && dig(svc, "environment", "NATS_LICENSE_PASSWORD") != "" {
			t.Errorf("service %s keeps NATS_LICENSE_PASSWORD from the env file: only the license daemon may hold it", name)
		}
		if files, _ := dig(svc, "env_file").([]any); !slices.Contains(files, any("deploy/compose/docsuite.env")) {
			t.Errorf("service %s does not read deploy/compose/docsuite.env", name)
		}
	}
	gpu := services(t, loadYAML(t, "docker-compose.gpu.yml"))
	for name, svc := range gpu {
		role, ok := roleOf[name]
		if !ok {
			t.Errorf("GPU override names %s, which is no docsuite service of docker-compose.yml", name)
			continue
		}
		for _, k := range envKeys(svc) {
			if !slices.Contains(vars[role], k) {
				t.Errorf("GPU override sets %s on %s, which role %s does not read", k, name, role)
			}
		}
		if dig(svc, "environment", "ALLOW_GPU") != "true" {
			t.Errorf("GPU override of %s does not set ALLOW_GPU=true", name)
		}
		devs, _ := dig(svc, "deploy", "resources", "reservations", "devices").([]any)
		if len(devs) == 0 || dig(devs[0], "driver") != "nvidia" {
			t.Errorf("GPU override of %s reserves no NVIDIA device", name)
		}
	}
}

// TestComposeInterpolation: every ${VAR} in the compose files is a config
// variable or one of compose's own, so the env-file template documents it.
func TestComposeInterpolation(t *testing.T) {
	known := map[string]bool{}
	for _, g := range envvars.Collect() {
		for _, v := range g.Vars {
			known[v.Name] = true
		}
	}
	for _, c := range envvars.ComposeVars() {
		known[c.Name] = true
	}
	re := regexp.MustCompile(`\$\{([A-Za-z0-9_]+)`)
	for _, f := range []string{"docker-compose.yml", "docker-compose.gpu.yml"} {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			if !known[m[1]] {
				t.Errorf("%s uses ${%s}, which the env-file template does not document", f, m[1])
			}
		}
	}
}

// TestComposeServices: the topology of the issue, each service with a
// restart policy, a health check, resource limits and a Dockerfile target.
func TestComposeServices(t *testing.T) {
	m := loadYAML(t, "docker-compose.yml")
	svcs := services(t, m)
	want := []string{"nginx", "gateway-1", "gateway-2", "cropper", "classifier", "orienter", "ocr", "fraud", "license", "janitor", "nats", "minio"}
	targets := dockerTargets(t)
	for _, name := range want {
		t.Run(name, func(t *testing.T) {
			svc, ok := svcs[name]
			if !ok {
				t.Fatal("missing")
			}
			if r := dig(svc, "restart"); r != "unless-stopped" && r != "always" {
				t.Errorf("restart = %v", r)
			}
			if test, _ := dig(svc, "healthcheck", "test").([]any); len(test) < 2 {
				t.Errorf("no health check")
			}
			if dig(svc, "deploy", "resources", "limits", "cpus") == nil || dig(svc, "deploy", "resources", "limits", "memory") == nil {
				t.Errorf("no cpu and memory limits")
			}
			img, _ := dig(svc, "image").(string)
			target, _ := dig(svc, "build", "target").(string)
			if !strings.HasPrefix(img, "docsuite/") || !slices.Contains(targets, target) {
				t.Errorf("image %q, build target %q: want a docsuite image built from a Dockerfile stage %v", img, target, targets)
			}
		})
	}
	if ports, _ := dig(svcs["nginx"], "ports").([]any); len(ports) != 1 || !strings.HasSuffix(fmt.Sprint(ports[0]), ":-8080}:80") {
		t.Errorf("nginx ports %v: want 8080 (DOCSUITE_HTTP_PORT) mapped to 80", ports)
	}
	for name, svc := range svcs {
		for _, n := range asStrings(dig(svc, "networks")) {
			if dig(m, "networks", n) == nil {
				t.Errorf("%s joins undeclared network %s", name, n)
			}
		}
		if strings.HasPrefix(name, "gateway-") && dig(svc, "environment", "LICENSE_ENFORCE") != "true" {
			t.Errorf("%s does not enforce the license", name)
		}
	}
	if dig(m, "networks", "backend", "internal") != true {
		t.Error("backend network is not internal")
	}
}

func asStrings(v any) []string {
	var out []string
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			out = append(out, fmt.Sprint(e))
		}
	case map[string]any:
		for k := range x {
			out = append(out, k)
		}
	}
	return out
}

// TestNginxUpstreamsMatchGateways: deploy/nginx/upstream.conf has one
// server per gateway service, on the port that service listens on.
func TestNginxUpstreamsMatchGateways(t *testing.T) {
	svcs := services(t, loadYAML(t, "docker-compose.yml"))
	var want []string
	for name, svc := range svcs {
		if appRole(t, svc) == "gateway" {
			addr := fmt.Sprint(dig(svc, "environment", "HTTP_ADDR"))
			want = append(want, name+":"+addr[strings.LastIndex(addr, ":")+1:])
		}
	}
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy/nginx/upstream.conf"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^\s*server (\S+?)[ ;]`).FindAllStringSubmatch(string(b), -1) {
		got = append(got, m[1])
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) || len(want) < 2 {
		t.Fatalf("upstream servers %v, gateway services %v", got, want)
	}
}

// TestProxiesWaitForTheirRequests: nginx is stopped with SIGQUIT, which
// lets the requests it proxies finish, but compose kills it after its
// stop_grace_period, 10 s unless set: recreating nginx (docs/operations.md,
// "Scale") cut every synchronous request running longer than that. It
// waits as long as the gateways it proxies to.
func TestProxiesWaitForTheirRequests(t *testing.T) {
	svcs := services(t, loadYAML(t, "docker-compose.yml"))
	want := dig(svcs["gateway-1"], "stop_grace_period")
	if want == nil {
		t.Fatal("gateway-1 has no stop_grace_period")
	}
	if got := dig(svcs["nginx"], "stop_grace_period"); got != want {
		t.Errorf("nginx stop_grace_period = %v, want the gateways' %v", got, want)
	}
}

// TestComposeNATSCredentials: NATS requires the credentials of the env
// file (docker compose refuses to start without them), every role but the
// license daemon connects as NATS_USER, and the license daemon as its own
// user license, the only one that may write the verdict.
func TestComposeNATSCredentials(t *testing.T) {
	svcs := services(t, loadYAML(t, "docker-compose.yml"))
	required := func(name string) string { return "${" + name + ":?set " + name + " in deploy/compose/docsuite.env}" }
	for k, want := range map[string]string{
		"NATS_USER": required("NATS_USER"), "NATS_PASSWORD": required("NATS_PASSWORD"),
		"NATS_LICENSE_PASSWORD": required("NATS_LICENSE_PASSWORD"),
	} {
		if got := dig(svcs["nats"], "environment", k); got != want {
			t.Errorf("nats: %s = %v, want %s", k, got, want)
		}
		if !envvars.MustSet(k) {
			t.Errorf("%s is not marked as set by every installation in the env-file template", k)
		}
	}
	for name, svc := range svcs {
		role := appRole(t, svc)
		if role == "" {
			continue
		}
		user, password := required("NATS_USER"), required("NATS_PASSWORD")
		if role == "license" {
			user, password = "license", required("NATS_LICENSE_PASSWORD")
		}
		if got := dig(svc, "environment", "NATS_USER"); got != user {
			t.Errorf("%s: NATS_USER = %v, want %s", name, got, user)
		}
		if got := dig(svc, "environment", "NATS_PASSWORD"); got != password {
			t.Errorf("%s: NATS_PASSWORD = %v, want %s", name, got, password)
		}
	}
}
