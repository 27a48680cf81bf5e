package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLogStreamOutlivesStderrPointedAway points the process's stderr at a
// file, takes the log stream, then points stderr at /dev/null as
// gosseract does while Tesseract loads: a line logged then must still
// reach the file (the container's log), not vanish.
func TestLogStreamOutlivesStderrPointedAway(t *testing.T) {
	dir := t.TempDir()
	logFile, err := os.Create(filepath.Join(dir, "stderr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	saved, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	restore := func() { _ = syscall.Dup2(saved, 2) }
	defer syscall.Close(saved)
	defer restore()

	if err := syscall.Dup2(int(logFile.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	s := logStream()
	if err := syscall.Dup2(int(null.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(s, `{"msg":"logged while stderr pointed away"}`)
	restore()
	_ = s.Close()

	got, err := os.ReadFile(logFile.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "logged while stderr pointed away") {
		t.Errorf("the line logged while descriptor 2 was /dev/null did not reach the log: %q", got)
	}
}
