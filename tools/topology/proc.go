package topology

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proc is one process of the topology: a server (nats, minio, nginx) or a
// role of the suite.
type Proc struct {
	// Name is unique in the cluster: "gateway-1", "classifier-2", "nats".
	Name string
	// Role is the suite role it runs, empty for the servers.
	Role string
	// Addr is the HTTP address it serves (the API of a gateway, the
	// internal /metrics of a worker), empty when none.
	Addr    string
	Path    string
	Args    []string
	Env     []string
	Dir     string
	LogPath string

	mu      sync.Mutex
	cmd     *exec.Cmd
	done    chan struct{}
	exitErr error
}

// start launches the process in its own process group with stdout and
// stderr appended to its log file.
func (p *Proc) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	logf, err := os.OpenFile(p.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("topology: log of %s: %w", p.Name, err)
	}
	fmt.Fprintf(logf, "---- %s start: %s %s\n", time.Now().Format(time.RFC3339Nano), p.Path, strings.Join(p.Args, " "))
	cmd := exec.Command(p.Path, p.Args...)
	cmd.Env, cmd.Dir, cmd.Stdout, cmd.Stderr = p.Env, p.Dir, logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		_ = logf.Close()
		return fmt.Errorf("topology: start %s: %w", p.Name, err)
	}
	done := make(chan struct{})
	p.cmd, p.done = cmd, done
	go func() {
		err := cmd.Wait()
		_ = logf.Close()
		p.mu.Lock()
		p.exitErr = err
		p.mu.Unlock()
		close(done)
	}()
	return nil
}

// Pid is the process id, 0 when not started.
func (p *Proc) Pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Running reports whether the process has been started and not exited.
func (p *Proc) Running() bool {
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// signal sends sig to the process and waits up to wait for it to exit.
// It reports whether the process is gone.
func (p *Proc) signal(sig syscall.Signal, wait time.Duration) bool {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil || done == nil {
		return true
	}
	select {
	case <-done:
		return true
	default:
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-done:
		return true
	case <-time.After(wait):
		return false
	}
}

// Reload asks nginx to read its configuration and certificates again
// (SIGHUP), without waiting.
func (p *Proc) Reload() { p.signal(syscall.SIGHUP, 0) }

// Kill ends the process at once (SIGKILL), as a crash would.
func (p *Proc) Kill() { p.signal(syscall.SIGKILL, 10*time.Second) }

// Stop asks the process to stop (SIGTERM, or SIGQUIT for nginx's graceful
// shutdown) and kills it after grace.
func (p *Proc) Stop(grace time.Duration) {
	sig := syscall.SIGTERM
	if filepath.Base(p.Path) == "nginx" {
		sig = syscall.SIGQUIT
	}
	if !p.signal(sig, grace) {
		p.Kill()
	}
}

// ExitErr is how the process ended (nil while running or on exit 0).
func (p *Proc) ExitErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.exitErr
}

// Tail returns the last n bytes of the process's log.
func (p *Proc) Tail(n int64) string {
	f, err := os.Open(p.LogPath)
	if err != nil {
		return ""
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(0, st.Size()-n)
	buf := make([]byte, st.Size()-off)
	_, _ = f.ReadAt(buf, off)
	return string(buf)
}

// waitHTTP polls url until it answers want, the process exits, or ctx ends.
func waitHTTP(ctx context.Context, p *Proc, url string, want int) error {
	return waitHTTPWith(ctx, &http.Client{Timeout: 3 * time.Second}, p, url, want)
}

// waitHTTPWith is waitHTTP through client (an HTTPS one, say).
func waitHTTPWith(ctx context.Context, client *http.Client, p *Proc, url string, want int) error {
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == want {
				return nil
			}
			err = fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		last = err
		if p != nil && !p.Running() {
			return fmt.Errorf("%s %w (%v) before %s answered; log tail:\n%s", p.Name, errExited, p.ExitErr(), url, p.Tail(3000))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer %d in time: %w", url, want, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// errExited marks a process that exited before it answered.
var errExited = errors.New("exited")

// portTries is how many times a process that exits before it answers is
// started on other ports: a port freePort found free can be taken by
// another process (a test package running beside this one) before the
// server binds it, and the server then exits at once.
const portTries = 3

// freePort returns a TCP port free on loopback right now: free when
// asked, not reserved (see portTries).
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("topology: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
