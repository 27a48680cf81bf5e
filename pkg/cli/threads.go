package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
)

// startEnv is what the model roles' native libraries must find in the
// environment when the process loads them, before any Go code runs:
//   - OMP_THREAD_LIMIT=1: Tesseract's OpenMP build (libgomp) runs several
//     times slower on two cores with more than one thread a page;
//   - OPENCV_LOG_LEVEL=ERROR: OpenCV's warnings (a TIFF strip it cannot
//     read, say, which the decoder already reports as a corrupt file) are
//     plain text on stderr, among the process's JSON log lines;
//   - ORT_DISABLE_TELEMETRY=1: ONNX Runtime's usage reports off (see
//     onnxrt.TelemetryEnv). onnxrt.Open sets it too when it is unset, but
//     in the environment from the start no goroutine changes the C
//     environment while another native library reads it.
var startEnv = []string{"OMP_THREAD_LIMIT=1", "OPENCV_LOG_LEVEL=ERROR", "ORT_DISABLE_TELEMETRY=1"}

// withStartEnv returns environ with each startEnv setting it does not name
// at all added, and whether any was (an operator's own value, even empty,
// is kept).
func withStartEnv(environ []string) ([]string, bool) {
	var missing []string
	for _, want := range startEnv {
		name, _, _ := strings.Cut(want, "=")
		if !slices.ContainsFunc(environ, func(kv string) bool { return strings.HasPrefix(kv, name+"=") }) {
			missing = append(missing, want)
		}
	}
	if len(missing) == 0 {
		return environ, false
	}
	return append(slices.Clone(environ), missing...), true
}

// reexecWithStartEnv starts the process again with the startEnv settings
// it lacks (a binary started by hand; the images, make and the topology
// set them): setting them from Go is too late for libgomp and OpenCV, and
// a passport's extraction took 0.84 s on one core instead of 0.58 s. It
// returns only when nothing needs doing or the exec failed.
func reexecWithStartEnv() error {
	env, add := withStartEnv(os.Environ())
	if !add {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cli: find own executable: %w", err)
	}
	if err := syscall.Exec(exe, os.Args, env); err != nil {
		return fmt.Errorf("cli: start again with %s: %w", strings.Join(startEnv, " "), err)
	}
	return nil
}
