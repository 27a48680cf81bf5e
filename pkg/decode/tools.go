package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
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
	return runToolWithin(ctx, toolTimeout, memLimit, maxOut, name, args...)
}

// runToolWithin is runTool with the tool's time limit (wall clock and CPU
// time) given.
func runToolWithin(ctx context.Context, limit time.Duration, memLimit, maxOut int64, name string, args ...string) ([]byte, error) {
	var data []byte
	err := streamToolWithin(ctx, limit, memLimit, maxOut, func(r io.Reader) error {
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
// failure wins over consume's, whose reading it explains. A tool stopped
// at its time limit (toolTimeout) is an errToolTime.
func streamTool(ctx context.Context, memLimit, maxOut int64, consume func(io.Reader) error, name string, args ...string) error {
	return streamToolWithin(ctx, toolTimeout, memLimit, maxOut, consume, name, args...)
}

// streamToolWithin is streamTool with the tool's time limit given: its
// wall clock, and its CPU time in whole seconds (at least one).
func streamToolWithin(parent context.Context, limit time.Duration, memLimit, maxOut int64, consume func(io.Reader) error, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	cpu := max(int((limit+time.Second-1)/time.Second), 1)
	full := append([]string{"--as=" + strconv.FormatInt(memLimit, 10), "--cpu=" + strconv.Itoa(cpu), "--", name}, args...)
	cmd := exec.CommandContext(ctx, "prlimit", full...)
	dieWithParent(cmd)
	var stderr stderrBuffer
	cmd.Stderr = &stderr
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
	case ctx.Err() != nil && parent.Err() == nil:
		return fmt.Errorf("%s: %w (%.0f s)", name, errToolTime, limit.Seconds())
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", name, ctx.Err())
	case failed && signalled(ee, syscall.SIGXCPU):
		return fmt.Errorf("%s: %w (%d s of CPU time)", name, errToolTime, cpu)
	case failed:
		return &toolError{name: name, err: waitErr, stderr: stderr.kept(), lines: stderr.lines}
	case consumeErr != nil:
		return fmt.Errorf("%s: %w", name, consumeErr)
	case waitErr != nil:
		return fmt.Errorf("%s: %w", name, waitErr)
	}
	return nil
}

// killedBySIGKILL reports whether a process ended on SIGKILL.
func killedBySIGKILL(ee *exec.ExitError) bool { return signalled(ee, syscall.SIGKILL) }

// signalled reports whether a process ended on signal sig (SIGXCPU: its
// CPU time limit).
func signalled(ee *exec.ExitError, sig syscall.Signal) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// errToolTime is a tool stopped at its time limit, of the wall clock or
// of CPU time, while the request still had time.
var errToolTime = errors.New("stopped at its time limit")

// RenderTimeError is a PDF or DJVU page whose rendering ran past the
// renderer's time limit, the request's own time left: a page too complex
// to render here (a content stream of a few kilobytes can draw millions
// of paths), refused rather than left to hold a core any longer. It is an
// ErrCorrupt.
type RenderTimeError struct {
	Format Format
	// Page is 0-based; DPI is the resolution it was rendered at.
	Page, DPI int
	// Limit is the renderer's time limit.
	Limit time.Duration
	// Cause is the tool's failure.
	Cause error
}

func (e *RenderTimeError) Error() string {
	return fmt.Sprintf("decode: %s page %d did not render within %.0f s at dpi %d, the renderer's time limit: %v",
		e.Format, e.Page+1, e.Limit.Seconds(), e.DPI, e.Cause)
}

// Is makes a RenderTimeError an ErrCorrupt.
func (e *RenderTimeError) Is(target error) bool { return target == ErrCorrupt }

// renderFailed is the error of a page's rendering that failed with err: a
// RenderTimeError where the tool ran out of its time, else ErrCorrupt.
func renderFailed(f Format, page, dpi int, limit time.Duration, err error) error {
	if errors.Is(err, errToolTime) {
		return &RenderTimeError{Format: f, Page: page, DPI: dpi, Limit: limit, Cause: err}
	}
	return corrupt(f, err)
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

// toolError is a tool that ran and failed, with what stderrBuffer kept of
// its stderr, for the code here to match on. Its message, which the roles
// log, carries stderrExcerpt of it; ClientText leaves even that out of
// what a client reads.
type toolError struct {
	name   string
	err    error
	stderr []byte
	lines  int // stderr's, all of them
}

func (e *toolError) Error() string {
	s := fmt.Sprintf("%s: %v", e.name, e.err)
	if x := stderrExcerpt(e.stderr, e.lines); x != "" {
		s += " [stderr: " + x + "]"
	}
	return s
}

// What poppler, qpdf and djvulibre write to stderr is mostly their own
// messages, but some quote the file: an operator, a font or a name the
// content stream used ("Unknown operator 'Ivanov'"), bytes of a damaged
// object, the temporary copy's path; and a damaged file can make them
// write many lines. A log keeps one line of it: the last (the failure's
// reason; warnings come before it), quoted spans replaced by '...', bytes
// other than printable ASCII by '?', at most excerptMax bytes, and how many
// lines there were. A client's answer keeps none of it (ClientText).

// excerptMax bounds stderrExcerpt's line.
const excerptMax = 160

// quotedSpan is a span of text a tool quotes, opening after a space,
// '(' or the line's start (so that "Couldn't" is no quote), closing at the
// same mark or the line's end.
var quotedSpan = regexp.MustCompile(`(^|[\s(=:,])('[^']*('|$)|"[^"]*("|$))`)

// stderrExcerpt is the one line of a tool's stderr that a log keeps; ""
// when it wrote nothing. lines is how many it wrote, when more than stderr
// holds.
func stderrExcerpt(stderr []byte, lines int) string {
	var all []string
	for _, l := range strings.FieldsFunc(string(stderr), func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			all = append(all, l)
		}
	}
	if len(all) == 0 {
		return ""
	}
	last := []byte(all[len(all)-1])
	for k, c := range last {
		switch {
		case c == '[':
			last[k] = '('
		case c == ']':
			last[k] = ')'
		case c < ' ' || c > '~':
			last[k] = '?'
		}
	}
	x := quotedSpan.ReplaceAllStringFunc(string(last), func(m string) string {
		i := strings.IndexAny(m, `'"`)
		return m[:i+1] + "..." + m[i:i+1]
	})
	if len(x) > excerptMax {
		x = x[:excerptMax] + "..."
	}
	if lines = max(lines, len(all)); lines > 1 {
		x += fmt.Sprintf(" (last of %d lines)", lines)
	}
	return x
}

// stderrPart is stderrExcerpt as toolError's message holds it.
var stderrPart = regexp.MustCompile(` \[stderr: [^\]]*\]`)

// ClientText is err's message as a client may read it: what a decoding tool
// wrote to stderr (toolError) left out, which may quote the file and which
// the client has no use for. The roles log err itself.
func ClientText(err error) string {
	return stderrPart.ReplaceAllString(err.Error(), "")
}

// stderrKeep is how much of its start and of its end stderrBuffer keeps.
const stderrKeep = 2048

// stderrBuffer keeps the start of what a tool writes to stderr (where
// poppler says "Incorrect password") and its end (the failure's reason,
// after any number of warnings), and counts its lines.
type stderrBuffer struct {
	head, tail []byte
	lines      int
}

func (b *stderrBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.lines += bytes.Count(p, []byte{'\n'})
	if room := stderrKeep - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head, p = append(b.head, p[:k]...), p[k:]
	}
	b.tail = append(b.tail, p...)
	// Shifted down once twice the size kept: a tool writing megabytes of
	// warnings a line at a time costs a copy a kilobyte or so.
	if len(b.tail) > 2*stderrKeep {
		b.tail = append(b.tail[:0], b.tail[len(b.tail)-stderrKeep:]...)
	}
	return n, nil
}

// kept is the start and end kept, a line apart (the end's first line may
// be cut).
func (b *stderrBuffer) kept() []byte {
	k := bytes.TrimSpace(b.head)
	if t := b.tail[max(len(b.tail)-stderrKeep, 0):]; len(t) > 0 {
		k = append(append(k[:len(k):len(k)], '\n'), bytes.TrimSpace(t)...)
	}
	return k
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
