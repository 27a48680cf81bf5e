package cli

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// threadLimit is the OpenMP setting the model roles need: Tesseract's
// OpenMP build runs several times slower on two cores with more than one
// thread a page, and its runtime (libgomp) reads OMP_THREAD_LIMIT when the
// process loads it, before any Go code runs.
const threadLimit = "OMP_THREAD_LIMIT=1"

// withThreadLimit returns environ with OMP_THREAD_LIMIT=1 added, and true,
// when it does not name OMP_THREAD_LIMIT at all (an operator's own value,
// even empty, is kept).
func withThreadLimit(environ []string) ([]string, bool) {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "OMP_THREAD_LIMIT=") {
			return environ, false
		}
	}
	return append(append([]string(nil), environ...), threadLimit), true
}

// reexecWithThreadLimit starts the process again with OMP_THREAD_LIMIT=1
// in its environment when it lacks the variable (a binary started by
// hand; the images, make and the topology set it): setting it from Go is
// too late for libgomp, and a passport's extraction took 0.84 s on one
// core instead of 0.58 s. It returns only when nothing needs doing or the
// exec failed.
func reexecWithThreadLimit() error {
	env, add := withThreadLimit(os.Environ())
	if !add {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cli: find own executable: %w", err)
	}
	if err := syscall.Exec(exe, os.Args, env); err != nil {
		return fmt.Errorf("cli: start again with %s: %w", threadLimit, err)
	}
	return nil
}
