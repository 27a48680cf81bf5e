package roles

import (
	"io"
	"log/slog"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"docsuite/pkg/bus"
)

// embeddedNATS starts a NATS server of the test's own and connects to it;
// both end with the test. It returns the server (to stop it early), the
// connection and a logger that discards.
func embeddedNATS(t *testing.T) (*server.Server, *nats.Conn, *slog.Logger) {
	t.Helper()
	ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	nc, err := bus.Connect(ns.ClientURL(), "test", log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return ns, nc, log
}
