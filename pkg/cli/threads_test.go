package cli

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestWithStartEnv(t *testing.T) {
	const omp, cv, ort = "OMP_THREAD_LIMIT=1", "OPENCV_LOG_LEVEL=ERROR", "ORT_DISABLE_TELEMETRY=1"
	for _, tc := range []struct {
		name    string
		environ []string
		want    []string // nil: unchanged
	}{
		{"all absent", []string{"PATH=/usr/bin", "HOME=/root"}, []string{"PATH=/usr/bin", "HOME=/root", omp, cv, ort}},
		{"empty environment", nil, []string{omp, cv, ort}},
		{"all set", []string{"PATH=/usr/bin", omp, cv, ort}, nil},
		{"operator's own values", []string{"OMP_THREAD_LIMIT=4", "OPENCV_LOG_LEVEL=DEBUG", "ORT_DISABLE_TELEMETRY=0"}, nil},
		{"set empty", []string{"OMP_THREAD_LIMIT=", "OPENCV_LOG_LEVEL=", "ORT_DISABLE_TELEMETRY="}, nil},
		{"only the thread limit set", []string{omp}, []string{omp, cv, ort}},
		{"only the log level set", []string{"OPENCV_LOG_LEVEL=INFO"}, []string{"OPENCV_LOG_LEVEL=INFO", omp, ort}},
		{"longer names only", []string{"OMP_THREAD_LIMIT_X=1", "OPENCV_LOG_LEVELS=1"}, []string{"OMP_THREAD_LIMIT_X=1", "OPENCV_LOG_LEVELS=1", omp, cv, ort}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(tc.environ)
			got, added := withStartEnv(tc.environ)
			want := tc.want
			if want == nil {
				want = tc.environ
			}
			if added != (tc.want != nil) {
				t.Fatalf("added = %v, want %v", added, tc.want != nil)
			}
			if !slices.Equal(got, want) {
				t.Errorf("environment %q, want %q", got, want)
			}
			if !slices.Equal(tc.environ, before) {
				t.Errorf("the caller's environment was changed: %q", tc.environ)
			}
		})
	}
}

// A process started without OMP_THREAD_LIMIT and OPENCV_LOG_LEVEL starts
// itself again with them: this test runs its own binary as that process
// (the helper below).
func TestReexecWithStartEnv(t *testing.T) {
	if os.Getenv("CLI_REEXEC_HELPER") == "1" {
		if err := reexecWithStartEnv(); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		// Reached only with the variable already set: the second start.
		fmt.Println("limit:", os.Getenv("OMP_THREAD_LIMIT"), "opencv:", os.Getenv("OPENCV_LOG_LEVEL"), "telemetry off:", os.Getenv("ORT_DISABLE_TELEMETRY"), "pid:", os.Getpid())
		os.Exit(0)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMP_THREAD_LIMIT=") && !strings.HasPrefix(kv, "OPENCV_LOG_LEVEL=") && !strings.HasPrefix(kv, "ORT_DISABLE_TELEMETRY=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReexecWithStartEnv$")
	cmd.Env = append(env, "CLI_REEXEC_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "limit: 1 opencv: ERROR telemetry off: 1 ") {
		t.Errorf("the helper did not start again with OMP_THREAD_LIMIT=1, OPENCV_LOG_LEVEL=ERROR and ORT_DISABLE_TELEMETRY=1:\n%s", out)
	}
}
