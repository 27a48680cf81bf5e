package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// toolTimeout bounds one run of a PDF or DJVU tool.
const toolTimeout = 60 * time.Second

// memoryFor is the address-space limit of a tool rendering a page of the
// given pixel count: room for a few copies of the page plus the program.
func memoryFor(pixels int64) int64 {
	return 512<<20 + 12*pixels
}

// runTool runs a poppler or djvulibre program under prlimit (address
// space and CPU time bounded) and returns its standard output, refusing
// more than maxOut bytes. A crash or limit in the tool is an error here,
// never a problem of this process. When the tool fails, what it wrote
// comes back with the error.
func runTool(ctx context.Context, memLimit, maxOut int64, name string, args ...string) ([]byte, error) {
	var data []byte
	err := streamTool(ctx, memLimit, maxOut, func(r io.Reader) error {
		var err error
		data, err = io.ReadAll(r)
		return err
	}, name, args...)
	var te *toolError
	if err != nil && !errors.As(err, &te) {
		return nil, err
	}
	return data, err
}

// streamTool is runTool handing the tool's standard output to consume as
// it is written, so that a page's pixels are never held twice. What
// consume leaves unread is read and dropped (the tool must not block on
// a full pipe); when consume fails the tool is stopped. The tool's own
// failure wins over consume's, whose reading it explains.
func streamTool(ctx context.Context, memLimit, maxOut int64, consume func(io.Reader) error, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	full := append([]string{"--as=" + strconv.FormatInt(memLimit, 10), "--cpu=" + strconv.Itoa(int(toolTimeout/time.Second)), "--", name}, args...)
	cmd := exec.CommandContext(ctx, "prlimit", full...)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	cr := &countingReader{r: io.LimitReader(out, maxOut+1)}
	consumeErr := consume(cr)
	if consumeErr == nil {
		_, consumeErr = io.Copy(io.Discard, cr)
	}
	over := cr.n > maxOut
	killed := over || consumeErr != nil
	if killed {
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	// The tool failed of itself unless it died of the kill sent here.
	var ee *exec.ExitError
	failed := errors.As(waitErr, &ee) && !(killed && killedBySIGKILL(ee))
	switch {
	case over:
		return fmt.Errorf("%s: output over %d bytes", name, maxOut)
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", name, ctx.Err())
	case failed:
		return &toolError{name: name, err: waitErr, stderr: bytes.TrimSpace(stderr.Bytes())}
	case consumeErr != nil:
		return fmt.Errorf("%s: %w", name, consumeErr)
	case waitErr != nil:
		return fmt.Errorf("%s: %w", name, waitErr)
	}
	return nil
}

// killedBySIGKILL reports whether a process ended on SIGKILL.
func killedBySIGKILL(ee *exec.ExitError) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// toolError is a tool that ran and failed; its message carries stderr.
type toolError struct {
	name   string
	err    error
	stderr []byte
}

func (e *toolError) Error() string {
	return fmt.Sprintf("%s: %v: %s", e.name, e.err, e.stderr)
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(l.n, len(p))
		_, _ = l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// tempCopy writes data to a fresh temporary file the tools can read.
func tempCopy(dir, pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", fmt.Errorf("decode: temporary file: %w", err)
	}
	name := f.Name()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(name)
		return "", fmt.Errorf("decode: temporary file: %w", err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(name)
		return "", fmt.Errorf("decode: temporary file: %w", err)
	}
	return name, nil
}
