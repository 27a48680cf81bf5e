package topology

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/testutil"
	"docsuite/tools/envdoc/envvars"
)

// TestComposeTLS: DOCSUITE_TLS and DOCSUITE_TLS_DIR reach nginx (its mode,
// the read-only folder mounted where listen-tls.conf reads tls.crt and
// tls.key), with the defaults the env-file template documents; the health
// check follows the mode; the gateways behind nginx stay plain HTTP
// whatever the env file says.
func TestComposeTLS(t *testing.T) {
	svcs := services(t, loadYAML(t, "docker-compose.yml"))
	nginx := svcs["nginx"]
	defaults := map[string]string{}
	for _, c := range envvars.ComposeVars() {
		defaults[c.Name] = c.Default
	}
	if got, want := dig(nginx, "environment", "DOCSUITE_TLS"), "${DOCSUITE_TLS:-"+defaults["DOCSUITE_TLS"]+"}"; got != want || defaults["DOCSUITE_TLS"] != "off" {
		t.Errorf("nginx DOCSUITE_TLS = %v, want %s (off by default)", got, want)
	}
	if defaults["DOCSUITE_TLS_DIR"] == "" {
		t.Fatal("DOCSUITE_TLS_DIR has no default folder")
	}
	mount := "${DOCSUITE_TLS_DIR:-" + defaults["DOCSUITE_TLS_DIR"] + "}:/etc/docsuite/tls:ro"
	if vols := asStrings(dig(nginx, "volumes")); !slices.Contains(vols, mount) {
		t.Errorf("nginx volumes %v lack %s", vols, mount)
	}
	if st, err := os.Stat(filepath.Join(repoRoot(t), defaults["DOCSUITE_TLS_DIR"], ".gitignore")); err != nil || st.IsDir() {
		t.Errorf("the default DOCSUITE_TLS_DIR has no .gitignore keeping keys out of git: %v", err)
	}
	if got := asStrings(dig(nginx, "healthcheck", "test")); !slices.Equal(got, []string{"CMD", "docsuite-nginx", "health"}) {
		t.Errorf("nginx health check %v, want the entrypoint's, which follows DOCSUITE_TLS", got)
	}
	if ports := asStrings(dig(nginx, "ports")); !slices.Equal(ports, []string{"${DOCSUITE_HTTP_PORT:-8080}:80"}) {
		t.Errorf("nginx ports %v: one port in either mode", ports)
	}
	tlsConf := readFile(t, "deploy/nginx/listen-tls.conf")
	for _, want := range []string{"ssl_certificate     /etc/docsuite/tls/tls.crt;", "ssl_certificate_key /etc/docsuite/tls/tls.key;"} {
		if !strings.Contains(tlsConf, want) {
			t.Errorf("listen-tls.conf lacks %q (the mount point of DOCSUITE_TLS_DIR)", want)
		}
	}
	for name, svc := range svcs {
		if appRole(t, svc) != "gateway" {
			continue
		}
		for _, k := range []string{"TLS_CERT_FILE", "TLS_KEY_FILE"} {
			if v, ok := dig(svc, "environment").(map[string]any)[k]; !ok || v != "" {
				t.Errorf("%s does not clear %s (nginx proxies to it over plain HTTP)", name, k)
			}
		}
	}
	df := readFile(t, "Dockerfile")
	for _, want := range []string{`ENTRYPOINT ["docsuite-nginx"]`, "COPY --chmod=0755 deploy/nginx/docsuite-nginx.sh /usr/local/bin/docsuite-nginx"} {
		if !strings.Contains(df, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}

// TestNginxTLSPolicy: TLS 1.2 and 1.3 only, forward-secret AEAD suites,
// HTTP/1.1, and plain HTTP answered with the gateway's own JSON 400.
func TestNginxTLSPolicy(t *testing.T) {
	conf := readFile(t, "deploy/nginx/listen-tls.conf")
	if !regexp.MustCompile(`(?m)^ssl_protocols TLSv1\.2 TLSv1\.3;$`).MatchString(conf) {
		t.Error("ssl_protocols is not TLSv1.2 TLSv1.3")
	}
	m := regexp.MustCompile(`(?m)^ssl_ciphers (\S+);$`).FindStringSubmatch(conf)
	if m == nil {
		t.Fatal("no ssl_ciphers")
	}
	for _, c := range strings.Split(m[1], ":") {
		if !strings.HasPrefix(c, "ECDHE-") || !(strings.Contains(c, "-GCM-") || strings.HasSuffix(c, "-CHACHA20-POLY1305")) {
			t.Errorf("cipher %s is not ECDHE with an AEAD", c)
		}
	}
	if regexp.MustCompile(`(?m)^[^#]*\bhttp2\b`).MatchString(conf) {
		t.Error("listen-tls.conf turns on HTTP/2")
	}
	page := regexp.MustCompile(`error_page 497 (/[\w./]+);`).FindStringSubmatch(conf)
	if page == nil {
		t.Fatal("no error_page 497 (plain HTTP on the HTTPS port)")
	}
	loc := regexp.MustCompile(`(?s)location = ` + regexp.QuoteMeta(page[1]) + ` \{(.*?)\n\}`).FindStringSubmatch(conf)
	if loc == nil {
		t.Fatalf("no location %s", page[1])
	}
	ret := regexp.MustCompile(`return 400 '([^']*)';`).FindStringSubmatch(loc[1])
	if ret == nil || !strings.Contains(loc[1], "default_type application/json;") {
		t.Fatalf("location %s does not return a JSON 400", page[1])
	}
	env := apierr.New(apierr.BadRequest, "").Envelope()
	// The detail pkg/gateway's HTTPS listener gives (plainHTTPMessage).
	env.Detail = []apierr.Detail{{Loc: []string{"request"}, Msg: "Client sent an HTTP request to an HTTPS port: use https://", Type: "value_error.http"}}
	want, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	if ret[1] != string(want) {
		t.Errorf("body %s\nwant %s", ret[1], want)
	}
}

// TestNginxEntrypoint runs the image's entrypoint outside the image: with
// DOCSUITE_TLS unset it starts nginx exactly as the image did before it
// had one; with DOCSUITE_TLS=on its configuration passes nginx -t with a
// fitting certificate and key, and a missing, unfitting or unknown
// setting stops it with the reason.
func TestNginxEntrypoint(t *testing.T) {
	script := filepath.Join(repoRoot(t), "deploy/nginx/docsuite-nginx.sh")
	run := func(t *testing.T, env []string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command("/bin/sh", append([]string{script}, args...)...)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	t.Run("plain mode as before", func(t *testing.T) {
		fake := t.TempDir()
		if err := os.WriteFile(filepath.Join(fake, "nginx"), []byte("#!/bin/sh\necho \"nginx $*\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		out, code := run(t, []string{"PATH=" + fake + ":" + os.Getenv("PATH"), "DOCSUITE_TLS=", "DOCSUITE_NGINX_CONF=", "DOCSUITE_NGINX_PREFIX="})
		if want := "nginx -p /tmp/ -c /etc/docsuite/nginx/nginx.conf -e stderr\n"; code != 0 || out != want {
			t.Fatalf("exit %d: %q, want %q (the image's former ENTRYPOINT)", code, out, want)
		}
	})
	t.Run("unknown mode", func(t *testing.T) {
		if out, code := run(t, []string{"DOCSUITE_TLS=yes"}); code != 64 || !strings.Contains(out, "DOCSUITE_TLS=yes must be on or off") {
			t.Fatalf("exit %d: %s", code, out)
		}
	})

	bin, err := nginxBin()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "conf")
	certDir := filepath.Join(dir, "tls")
	for _, d := range []string{conf, certDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := RenderNginx(repoRoot(t), conf, "127.0.0.1:18443", []string{"127.0.0.1:18081"}, certDir); err != nil {
		t.Fatal(err)
	}
	env := []string{"DOCSUITE_TLS=on", "DOCSUITE_NGINX_CONF=" + conf, "DOCSUITE_NGINX_PREFIX=" + dir,
		"PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")}
	t.Run("key missing", func(t *testing.T) {
		testutil.WriteTLSPair(t, certDir, "tls")
		if err := os.Remove(filepath.Join(certDir, "tls.key")); err != nil {
			t.Fatal(err)
		}
		if out, code := run(t, env, "-t"); code != 1 || !strings.Contains(out, filepath.Join(certDir, "tls.key")+" is missing") {
			t.Fatalf("exit %d: %s", code, out)
		}
	})
	t.Run("key of another certificate", func(t *testing.T) {
		testutil.WriteTLSPair(t, certDir, "tls")
		other := testutil.WriteTLSPair(t, t.TempDir(), "other")
		b, err := os.ReadFile(other.KeyFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(certDir, "tls.key"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		if out, code := run(t, env, "-t"); code == 0 || !strings.Contains(out, "key values mismatch") {
			t.Fatalf("exit %d: %s", code, out)
		}
	})
	t.Run("certificate and key that fit", func(t *testing.T) {
		testutil.WriteTLSPair(t, certDir, "tls")
		out, code := run(t, env, "-t")
		if code != 0 || !strings.Contains(out, "test is successful") {
			t.Fatalf("exit %d: %s", code, out)
		}
		listen, err := os.ReadFile(filepath.Join(dir, "conf-tls", "listen.conf"))
		if err != nil || !strings.Contains(string(listen), "listen 127.0.0.1:18443 ssl;") {
			t.Fatalf("the entrypoint's listen.conf is not listen-tls.conf: %v\n%s", err, listen)
		}
	})
}
