package bus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbeddedOptions configures an in-process NATS server.
type EmbeddedOptions struct {
	// StoreDir is where JetStream keeps streams and KV buckets.
	StoreDir string
	// Port is the client port; -1 picks a random free loopback port.
	// The server listens on the loopback interface only (127.0.0.1),
	// whatever the port: other machines never reach it.
	Port int
	// User and Password, when User is not empty, are the only credentials
	// the server accepts (the all-in-one's NATS_USER and NATS_PASSWORD):
	// other processes of the machine that reach its port need them too.
	User, Password string
}

// StartEmbedded runs a NATS server with JetStream inside this process and
// returns it once it accepts connections. Callers Shutdown it. The store
// folder is held (lockStoreDir) until the server has shut down: a second
// server on it is refused.
func StartEmbedded(o EmbeddedOptions) (*server.Server, error) {
	lock, err := lockStoreDir(o.StoreDir)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName: "docsuite-embedded",
		Host:       "127.0.0.1",
		Port:       o.Port,
		JetStream:  true,
		StoreDir:   o.StoreDir,
		NoSigs:     true,
		MaxPayload: 8 << 20,
		Username:   o.User,
		Password:   o.Password,
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		_ = lock.Close()
		return nil, fmt.Errorf("bus: embedded nats: %w", err)
	}
	go ns.Start()
	go func() {
		ns.WaitForShutdown()
		_ = lock.Close()
	}()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("bus: embedded nats not ready within 10s")
	}
	return ns, nil
}

// lockWait is how long lockStoreDir waits for a folder held by another
// server: one in this process that is shutting down lets go of it within
// it; one of another process (an all-in-one still running) does not.
const lockWait = 2 * time.Second

// lockStoreDir takes an exclusive lock on the file docsuite.lock in dir
// (created with it), released when the returned file is closed or the
// process ends. Two servers of one store folder (the all-in-one of a new
// release started while the old one still runs, at an upgrade in place)
// each kept their own view of the same files: each saw only the tasks it
// had taken, and at the next start the files of one had replaced the
// other's, its accepted tasks gone.
func lockStoreDir(dir string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("bus: JetStream store %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "docsuite.lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("bus: JetStream store %s: %w", dir, err)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			_ = f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("bus: JetStream store %s is in use by another NATS server (an all-in-one "+
					"still running on the same NATS_STORE_DIR?): stop it first", dir)
			}
			return nil, fmt.Errorf("bus: lock JetStream store %s: %w", dir, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
