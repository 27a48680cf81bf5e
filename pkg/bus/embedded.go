package bus

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbeddedOptions configures an in-process NATS server.
type EmbeddedOptions struct {
	// StoreDir is where JetStream keeps streams and KV buckets.
	StoreDir string
	// Port is the client port; -1 picks a random free loopback port.
	Port int
}

// StartEmbedded runs a NATS server with JetStream inside this process and
// returns it once it accepts connections. Callers Shutdown it.
func StartEmbedded(o EmbeddedOptions) (*server.Server, error) {
	opts := &server.Options{
		ServerName: "docsuite-embedded",
		Host:       "127.0.0.1",
		Port:       o.Port,
		JetStream:  true,
		StoreDir:   o.StoreDir,
		NoSigs:     true,
		MaxPayload: 8 << 20,
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("bus: embedded nats: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("bus: embedded nats not ready within 10s")
	}
	return ns, nil
}
