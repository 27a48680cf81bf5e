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
// never a problem of this process.
func runTool(ctx context.Context, memLimit, maxOut int64, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	full := append([]string{"--as=" + strconv.FormatInt(memLimit, 10), "--cpu=" + strconv.Itoa(int(toolTimeout/time.Second)), "--", name}, args...)
	cmd := exec.CommandContext(ctx, "prlimit", full...)
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data, readErr := io.ReadAll(io.LimitReader(out, maxOut+1))
	if int64(len(data)) > maxOut {
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	switch {
	case int64(len(data)) > maxOut:
		return nil, fmt.Errorf("%s: output over %d bytes", name, maxOut)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s: %w", name, ctx.Err())
	case readErr != nil:
		return nil, fmt.Errorf("%s: %w", name, readErr)
	case waitErr != nil:
		var ee *exec.ExitError
		if errors.As(waitErr, &ee) {
			return data, &toolError{name: name, err: waitErr, stderr: bytes.TrimSpace(stderr.Bytes())}
		}
		return nil, fmt.Errorf("%s: %w", name, waitErr)
	}
	return data, nil
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
