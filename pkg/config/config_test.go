package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, "docsuite.env")
	if err := os.WriteFile(envFile, []byte("PIPELINE_TIMEOUT=30\nMAX_PAGES=7\nLICENSE_TOKEN=s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MAX_PAGES", "9")
	var g Gateway
	if err := Load(&g, envFile); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"default", g.MaxFileBytes, int64(31457280)},
		{"env file over default", g.PipelineTimeout, 30},
		{"environment over env file", g.MaxPages, 9},
		{"nested struct default", g.Store.Kind, "folder"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	out := Print(&g)
	if strings.Contains(out, "s3cret") || !strings.Contains(out, "LICENSE_TOKEN=****") {
		t.Errorf("secret not masked:\n%s", out)
	}
}

func TestBadValues(t *testing.T) {
	tests := map[string]string{
		"PIPELINE_TIMEOUT": "soon",
		"LOGURU_COLORIZE":  "maybe",
	}
	for name, val := range tests {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, val)
			var g Gateway
			if err := Load(&g, ""); err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("want an error naming %s, got %v", name, err)
			}
		})
	}
	t.Run("validation", func(t *testing.T) {
		t.Setenv("STORE_KIND", "s4")
		var g Gateway
		if err := Load(&g, ""); err != nil {
			t.Fatal(err)
		}
		err := g.Validate()
		if err == nil || !strings.Contains(err.Error(), "STORE_KIND") {
			t.Fatalf("want STORE_KIND rejected, got %v", err)
		}
		if n := strings.Count(err.Error(), "invalid configuration"); n != 1 {
			t.Errorf("the message says \"invalid configuration\" %d times: %v", n, err)
		}
	})
}

func TestSharedVariableFilledEverywhere(t *testing.T) {
	t.Setenv("TMPDIR", "/var/tmp/x")
	t.Setenv("ALLOW_GPU", "TRUE")
	var a AllInOne
	if err := Load(&a, ""); err != nil {
		t.Fatal(err)
	}
	if a.TempDir != "/var/tmp/x" || !a.Models.AllowGPU {
		t.Errorf("got %+v", a)
	}
}

// TestIntervalsMustBePositive: a zero or negative sweep interval would
// start the janitor's ticker with a panic; it is refused at start instead.
func TestIntervalsMustBePositive(t *testing.T) {
	tests := []struct {
		name     string
		value    string
		validate func() error
	}{
		{"janitor zero", "0", func() error { var j Janitor; _ = Load(&j, ""); return j.Validate() }},
		{"janitor negative", "-5", func() error { var j Janitor; _ = Load(&j, ""); return j.Validate() }},
		{"all-in-one zero", "0", func() error { var a AllInOne; _ = Load(&a, ""); return a.Validate() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("JANITOR_INTERVAL", tc.value)
			err := tc.validate()
			if err == nil || !strings.Contains(err.Error(), "JANITOR_INTERVAL must be > 0") {
				t.Fatalf("want JANITOR_INTERVAL refused, got %v", err)
			}
			if n := strings.Count(err.Error(), "invalid configuration"); n != 1 {
				t.Errorf("the message says \"invalid configuration\" %d times: %v", n, err)
			}
		})
	}
	t.Run("defaults pass", func(t *testing.T) {
		var j Janitor
		var a AllInOne
		if err := Load(&j, ""); err != nil {
			t.Fatal(err)
		}
		if err := Load(&a, ""); err != nil {
			t.Fatal(err)
		}
		if err := j.Validate(); err != nil {
			t.Errorf("janitor defaults: %v", err)
		}
		if err := a.Validate(); err != nil {
			t.Errorf("all-in-one defaults: %v", err)
		}
	})
}

// TestBadValuesNamedAtStart: values that passed validation and then
// crashed a role, ran it silently on another value, or made a duration
// overflow; each is refused at start by a message naming the variable.
func TestBadValuesNamedAtStart(t *testing.T) {
	stage := func() error { var s Stage; _ = Load(&s, ""); return s.Validate() }
	gateway := func() error { var g Gateway; _ = Load(&g, ""); return g.Validate() }
	allinone := func() error { var a AllInOne; _ = Load(&a, ""); return a.Validate() }
	janitor := func() error { var j Janitor; _ = Load(&j, ""); return j.Validate() }
	tests := []struct {
		name, value string
		validate    func() error
	}{
		// 10^10 s overflows time.Duration: every request's context was
		// born expired, and the gateway exited with a NATS error.
		{"PIPELINE_TIMEOUT", "10000000000", gateway},
		{"PIPELINE_TIMEOUT", "99999999999999", stage},
		{"COMPLETED_TASK_TTL_SECONDS", "10000000000", gateway},
		{"LICENSE_GRACE_SECONDS", "-1", gateway},
		{"UPLOAD_MIN_RATE", "-1", gateway},
		// 10^16 bytes a second over 60 s overflows the bytes due.
		{"UPLOAD_MIN_RATE", "10000000000000000", allinone},
		{"ANSWER_MIN_RATE", "-1", gateway},
		{"ANSWER_MIN_RATE", "10000000000000000", allinone},
		{"JANITOR_INTERVAL", "99999999999999", janitor},
		{"MODEL_THREADS", "0", stage},
		{"MODEL_THREADS", "-1", stage},
		{"MODEL_THREADS", "99999999", stage},
		{"WORKER_CONCURRENCY", "-1", stage},
		{"WORKER_CONCURRENCY", "99999999", allinone},
		{"PAGE_MEMORY_BYTES", "-1", stage},
		{"PAGE_MEMORY_BYTES", "-1", allinone},
		{"ADDRESS_SERVICE_TIMEOUT_MS", "-1", stage},
		{"ADDRESS_SERVICE_TIMEOUT_MS", "0", allinone},
		{"ADDRESS_SERVICE_URL", "fias.local:8080", stage},
		{"NATS_PORT", "0", allinone},
		{"NATS_PORT", "70000", allinone},
		// A certificate without its key (or a key alone) is a half-done
		// HTTPS setup: refused rather than served as plain HTTP.
		{"TLS_CERT_FILE", "/etc/docsuite/tls/tls.crt", gateway},
		{"TLS_KEY_FILE", "/etc/docsuite/tls/tls.key", allinone},
	}
	for _, tc := range tests {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			err := tc.validate()
			if err == nil || !strings.Contains(err.Error(), tc.name) {
				t.Fatalf("want %s=%s refused by name, got %v", tc.name, tc.value, err)
			}
		})
	}
	t.Run("defaults pass", func(t *testing.T) {
		for name, v := range map[string]func() error{"stage": stage, "gateway": gateway, "allinone": allinone, "janitor": janitor} {
			if err := v(); err != nil {
				t.Errorf("%s defaults: %v", name, err)
			}
		}
	})
}

// TestURLCredentialsMasked: --check-config prints the password of a URL
// setting (a proxy's, NATS's) masked, and a URL's lone user name too
// (NATS token authentication), as it masks the secrets.
func TestURLCredentialsMasked(t *testing.T) {
	cases := []struct {
		name, variable, value, want string
	}{
		{"proxy with a password", "LICENSE_PROXY", "http://svc-docsuite:Pr0xyPass@proxy.bank:3128", "LICENSE_PROXY=http://svc-docsuite:****@proxy.bank:3128\n"},
		{"proxy without credentials", "LICENSE_PROXY", "http://proxy.bank:3128", "LICENSE_PROXY=http://proxy.bank:3128\n"},
		{"license URL with a password", "LICENSE_URL", "https://inst:S3cret@license.vendor/check", "LICENSE_URL=https://inst:****@license.vendor/check\n"},
		{"NATS servers, one with a token", "NATS_URL", "nats://T0ken@nats-1:4222,nats://nats-2:4222", "NATS_URL=nats://****@nats-1:4222,nats://nats-2:4222\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(tc.variable, tc.value)
			var c License
			if err := Load(&c, ""); err != nil {
				t.Fatal(err)
			}
			out := Print(&c)
			if !strings.Contains(out, tc.want) {
				t.Errorf("--check-config shows\n%s\nwant the line %q", out, tc.want)
			}
		})
	}
}

// TestNATSCredentials: NATS_USER and NATS_PASSWORD come together, not
// beside credentials in NATS_URL, and --check-config masks the password
// in every role (the roles log their configuration through the same
// masking).
func TestNATSCredentials(t *testing.T) {
	cases := []struct {
		name, user, password, url, wantErr string
	}{
		{"both", "docsuite", "pS3cret", "nats://nats:4222", ""},
		{"neither", "", "", "nats://nats:4222", ""},
		{"user alone", "docsuite", "", "nats://nats:4222", "NATS_USER and NATS_PASSWORD must be set together"},
		{"password alone", "", "pS3cret", "nats://nats:4222", "NATS_USER and NATS_PASSWORD must be set together"},
		{"also in the URL", "docsuite", "pS3cret", "nats://nats-1:4222,nats://a:b@nats-2:4222", "NATS_URL carries credentials"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NATS_USER", tc.user)
			t.Setenv("NATS_PASSWORD", tc.password)
			t.Setenv("NATS_URL", tc.url)
			var c Janitor
			if err := Load(&c, ""); err != nil {
				t.Fatal(err)
			}
			err := c.Validate()
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Validate() = %v, want %q", err, tc.wantErr)
			}
		})
	}
	t.Setenv("NATS_USER", "docsuite")
	t.Setenv("NATS_PASSWORD", "pS3cret-nats")
	for _, c := range []any{new(Gateway), new(Stage), new(License), new(Janitor), new(AllInOne)} {
		if err := Load(c, ""); err != nil {
			t.Fatal(err)
		}
		out := Print(c)
		if strings.Contains(out, "pS3cret-nats") || !strings.Contains(out, "NATS_PASSWORD=****\n") || !strings.Contains(out, "NATS_USER=docsuite\n") {
			t.Errorf("%T: --check-config shows\n%s", c, out)
		}
	}
}
