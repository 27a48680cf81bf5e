// Package bustest starts the embedded NATS server of package bus for
// tests: JetStream in the test's temporary folder, a connection to it, both
// ended with the test.
package bustest

import (
	"io"
	"log/slog"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"docsuite/pkg/bus"
)

// Start runs an embedded NATS server with JetStream for one test and
// connects to it as name. It returns the server (to stop it early), the
// connection and a logger that discards; the server is shut down and the
// connection closed when the test ends.
func Start(t testing.TB, name string) (*server.Server, *nats.Conn, *slog.Logger) {
	t.Helper()
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	nc, err := bus.Connect(ns.ClientURL(), name, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return ns, nc, log
}
