package bus

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"docsuite/pkg/apierr"
)

// TestRequestWhileNATSIsDownIsDependencyDown: with the NATS server gone, a
// sync request's stage request sat in the client's reconnect buffer until
// PIPELINE_TIMEOUT (120 s in the topology) and was answered 503
// pipeline_timeout (errno 24), its in-flight slot held all along, while
// /healthcheck already said "nats: not connected". It fails within the
// reconnect grace now, as dependency_down.
func TestRequestWhileNATSIsDownIsDependencyDown(t *testing.T) {
	ns, err := StartEmbedded(EmbeddedOptions{StoreDir: t.TempDir(), Port: -1})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := Connect(ns.ClientURL(), "test", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ns.Shutdown()
	for nc.IsConnected() {
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	start := time.Now()
	l := defaultLiveness
	l.reconnect = 500 * time.Millisecond
	_, err = request[echoReq, echoResp](ctx, nc, "crop", echoReq{}, l, nil)
	if got := apierr.As(err).Code; got != apierr.DependencyDown || time.Since(start) > 5*time.Second {
		t.Fatalf("want dependency_down within the grace, got %s (%v) after %v", got, err, time.Since(start).Round(time.Millisecond))
	}
}
