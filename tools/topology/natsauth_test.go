package topology

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/licensed"
	"docsuite/pkg/licensestate"
)

// natsAuthServer starts Debian's nats-server with the shipped
// deploy/nats/nats.conf and the given credentials, and returns its client
// URL.
func natsAuthServer(t *testing.T, user, password, licensePassword string) string {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("nats-server not installed")
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	mon, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-c", filepath.Join(repoRoot(t), "deploy/nats/nats.conf"),
		"-a", "127.0.0.1", "-p", fmt.Sprint(port), "-m", fmt.Sprint(mon))
	cmd.Env = append(os.Environ(), "NATS_SERVER_NAME=auth-test", "NATS_JETSTREAM_DIR="+t.TempDir(),
		"NATS_USER="+user, "NATS_PASSWORD="+password, "NATS_LICENSE_PASSWORD="+licensePassword)
	logPath := filepath.Join(t.TempDir(), "nats.log")
	out, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	deadline := time.Now().Add(15 * time.Second)
	for {
		nc, err := nats.Connect(url, nats.UserInfo(user, password))
		if err == nil {
			nc.Close()
			return url
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			t.Fatalf("nats-server not ready: %v\n%s", err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestNATSAuthentication: the shipped NATS configuration refuses clients
// without the credentials of the env file, and only the license daemon's
// user may write the license verdict or change its stream (or the usage
// counter's): a client holding the roles' credentials (a compromised
// worker, an operator's tool) cannot make the gateways serve without a
// valid license.
func TestNATSAuthentication(t *testing.T) {
	const user, password, licensePassword = "docsuite", "p0123456789abcdef", "lic-0123456789abcdef"
	url := natsAuthServer(t, user, password, licensePassword)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()

	for name, opts := range map[string][]nats.Option{
		"no credentials":      nil,
		"wrong password":      {nats.UserInfo(user, "wrong")},
		"license user's name": {nats.UserInfo("license", password)},
	} {
		if nc, err := nats.Connect(url, opts...); err == nil {
			nc.Close()
			t.Errorf("%s: connected", name)
		} else if !errors.Is(err, nats.ErrAuthorization) {
			t.Errorf("%s: %v, want an authorization violation", name, err)
		}
	}

	// A request the permissions deny gets no answer: the client waits
	// out its context.
	short := func() context.Context {
		c, cancel := context.WithTimeout(ctx, 3*time.Second)
		t.Cleanup(cancel)
		return c
	}
	app := jsConn(t, url, user, password)
	// Before the license daemon: the app user may not create the bucket,
	// and the gateway's Bind leaves it unbound rather than failing.
	if kv, err := licensestate.Bind(ctx, app); err != nil || kv != nil {
		t.Fatalf("app user's Bind before the license daemon = %v, %v; want nil, nil", kv, err)
	}
	if _, err := licensed.OpenUsage(short(), app); err == nil {
		t.Error("app user created the usage stream")
	}

	lic := jsConn(t, url, "license", licensePassword)
	lkv, err := licensestate.Open(ctx, lic)
	if err != nil {
		t.Fatalf("license user opens the bucket: %v", err)
	}
	if _, err := licensed.OpenUsage(ctx, lic); err != nil {
		t.Fatalf("license user opens the usage stream: %v", err)
	}
	if err := licensestate.Write(ctx, lkv, licensestate.Verdict{Valid: false, Reason: "expired", CheckedAt: time.Now()}); err != nil {
		t.Fatalf("license user writes the verdict: %v", err)
	}

	akv, err := licensestate.Bind(ctx, app)
	if err != nil || akv == nil {
		t.Fatalf("app user binds the bucket: %v, %v", akv, err)
	}
	if v, err := licensestate.Read(ctx, akv); err != nil || v.Valid || v.Reason != "expired" {
		t.Fatalf("app user reads the verdict: %+v, %v", v, err)
	}
	forged := licensestate.Verdict{Valid: true, Reachable: true, CheckedAt: time.Now(), NextCheck: time.Now().Add(time.Hour)}
	attempts := map[string]func() error{
		"write the verdict":  func() error { return licensestate.Write(short(), akv, forged) },
		"delete the verdict": func() error { return akv.Delete(short(), licensestate.Key) },
		"purge the verdict":  func() error { return akv.Purge(short(), licensestate.Key) },
		"publish on its subject": func() error {
			_, err := app.Publish(short(), "$KV."+licensestate.Bucket+"."+licensestate.Key, []byte(`{"valid":true}`))
			return err
		},
		"change the bucket": func() error {
			_, err := app.UpdateKeyValue(short(), jetstream.KeyValueConfig{Bucket: licensestate.Bucket, History: 5})
			return err
		},
		"delete the bucket": func() error { return app.DeleteKeyValue(short(), licensestate.Bucket) },
		"purge the usage counter": func() error {
			s, err := app.Stream(short(), licensed.UsageStream)
			if err == nil {
				err = s.Purge(short())
			}
			return err
		},
		"delete the usage counter": func() error { return app.DeleteStream(short(), licensed.UsageStream) },
	}
	var wg sync.WaitGroup
	for name, try := range attempts {
		wg.Go(func() {
			if err := try(); err == nil {
				t.Errorf("app user could %s", name)
			}
		})
	}
	wg.Wait()
	if v, err := licensestate.Read(ctx, lkv); err != nil || v.Valid || v.Reason != "expired" {
		t.Fatalf("verdict after the app user's attempts: %+v, %v", v, err)
	}

	// What the roles do with the app user stays allowed: other buckets
	// and streams (task states, tokens, the task queue), counting requests
	// and reading the counter.
	if _, err := app.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "docsuite_tokens"}); err != nil {
		t.Errorf("app user creates a KV bucket: %v", err)
	}
	if _, err := app.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "AUTH_TEST", Subjects: []string{"auth.test.>"}}); err != nil {
		t.Errorf("app user creates a stream: %v", err)
	}
	if _, err := app.Publish(ctx, licensed.UsageSubject, nil); err != nil {
		t.Errorf("app user counts a request: %v", err)
	}
	if n, err := licensed.ReadTotal(ctx, app); err != nil || n != 1 {
		t.Errorf("app user reads the usage counter: %d, %v", n, err)
	}
	// The license daemon's user may still change its own bucket.
	if err := lkv.Delete(ctx, licensestate.Key); err != nil {
		t.Errorf("license user deletes the verdict: %v", err)
	}
}

// jsConn connects to url as user and returns its JetStream context.
func jsConn(t *testing.T, url, user, password string) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect(url, nats.UserInfo(user, password), nats.Name("auth-test-"+user),
		nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
	if err != nil {
		t.Fatalf("%s: %v", user, err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}
