package roles

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"testing"
	"time"

	"docsuite/pkg/bus"
	"docsuite/pkg/config"
)

// TestConnectWaitsForNATS: a standalone role (gateway, worker, janitor)
// started before NATS exited at once ("bus: connect ...: no servers
// available for connection", exit code 1), and its container's restart
// policy started it again and again; it waits for the server now.
func TestConnectWaitsForNATS(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	go func() {
		time.Sleep(1500 * time.Millisecond)
		ns, err := bus.StartEmbedded(bus.EmbeddedOptions{StoreDir: t.TempDir(), Port: port})
		if err != nil {
			t.Error(err)
			return
		}
		t.Cleanup(ns.Shutdown)
	}()
	c := config.Common{NATSURL: fmt.Sprintf("nats://127.0.0.1:%d", port), Store: config.Store{Kind: "folder", Dir: t.TempDir()}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, closeFn, err := Connect(ctx, c, "test", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("want the role to wait for NATS, got %v", err)
	}
	closeFn()
}
