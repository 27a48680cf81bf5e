package bus

import (
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
)

// TestStoreDirHasOneServer: an embedded server refuses a JetStream store
// folder another one is using. Two all-in-ones on the same NATS_STORE_DIR
// (the new release started while the old one still answered its last
// requests, at an upgrade in place) each ran a server on the same files,
// each saw only the tasks it had taken, and after a restart an accepted
// task answered 404: the files of one had overwritten the other's. The
// folder is free again once its server has shut down.
func TestStoreDirHasOneServer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		sameDir   bool
		stopFirst bool
		wantErr   bool
	}{
		{"the same folder while the first runs", true, false, true},
		{"the same folder once the first has stopped", true, true, false},
		{"another folder", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first, err := StartEmbedded(EmbeddedOptions{StoreDir: filepath.Join(dir, "nats"), Port: -1})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(first.Shutdown)
			if tc.stopFirst {
				first.Shutdown()
			}
			second := filepath.Join(dir, "nats")
			if !tc.sameDir {
				second = filepath.Join(dir, "other")
			}
			ns, err := StartEmbedded(EmbeddedOptions{StoreDir: second, Port: -1})
			if err == nil {
				t.Cleanup(ns.Shutdown)
			}
			switch {
			case tc.wantErr && err == nil:
				t.Fatal("a second server started on the folder the first one uses")
			case tc.wantErr && !strings.Contains(err.Error(), second):
				t.Errorf("error %q does not name the folder", err)
			case !tc.wantErr && err != nil:
				t.Fatalf("refused: %v", err)
			}
		})
	}
}

// TestEmbeddedCredentials: with a user and password (the all-in-one's
// NATS_USER and NATS_PASSWORD) the embedded server, on the loopback
// interface only, refuses a client without them.
func TestEmbeddedCredentials(t *testing.T) {
	ns, err := StartEmbedded(EmbeddedOptions{StoreDir: t.TempDir(), Port: -1, User: "docsuite", Password: "pS3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	if !strings.HasPrefix(ns.ClientURL(), "nats://127.0.0.1:") {
		t.Errorf("embedded server listens at %s, want the loopback interface", ns.ClientURL())
	}
	log := slog.New(slog.DiscardHandler)
	if nc, err := Connect(ns.ClientURL(), "anonymous", log); err == nil {
		nc.Close()
		t.Error("a client without credentials connected")
	} else if !errors.Is(err, nats.ErrAuthorization) {
		t.Errorf("without credentials: %v, want an authorization violation", err)
	}
	nc, err := Connect(ns.ClientURL(), "role", log, Auth("docsuite", "pS3cret"))
	if err != nil {
		t.Fatal(err)
	}
	nc.Close()
}
