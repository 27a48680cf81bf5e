package topology

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestOnFreePortsTriesOtherPorts starts Debian's nats-server on a port
// another process holds: it exits at once, and onFreePorts starts it again
// on a free port; an error other than an early exit is not retried.
func TestOnFreePortsTriesOtherPorts(t *testing.T) {
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		t.Skip("Debian's nats-server is not installed (make deps)")
	}
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := &Cluster{opts: Options{Root: dir, Dir: dir, Log: io.Discard}}
	defer c.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var ports []int
	err = c.onFreePorts(func() error {
		port := held.Addr().(*net.TCPAddr).Port // taken on the first try
		if len(ports) > 0 {
			if port, err = freePort(); err != nil {
				return err
			}
		}
		ports = append(ports, port)
		mon, err := freePort()
		if err != nil {
			return err
		}
		p := &Proc{Name: "nats", Path: bin, Args: []string{"-a", "127.0.0.1", "-p", fmt.Sprint(port), "-m", fmt.Sprint(mon)}}
		if err := c.add(p); err != nil {
			return err
		}
		return waitHTTP(ctx, p, fmt.Sprintf("http://127.0.0.1:%d/healthz", mon), 200)
	})
	if err != nil {
		t.Fatalf("onFreePorts: %v (ports tried %v)", err, ports)
	}
	if len(ports) != 2 {
		t.Fatalf("started %d times (ports %v), want 2: once on the held port, once on a free one", len(ports), ports)
	}
	if n := len(c.procs); n != 1 || !c.procs[0].Running() {
		t.Fatalf("cluster holds %d processes after the retry, want the one running", n)
	}

	tries := 0
	other := errors.New("no such binary")
	if err := c.onFreePorts(func() error { tries++; return other }); !errors.Is(err, other) || tries != 1 {
		t.Fatalf("an error other than an early exit: %v after %d tries, want it after 1", err, tries)
	}
}
