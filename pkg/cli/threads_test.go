package cli

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestWithThreadLimit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		environ []string
		added   bool
	}{
		{"absent", []string{"PATH=/usr/bin", "HOME=/root"}, true},
		{"empty environment", nil, true},
		{"set", []string{"PATH=/usr/bin", "OMP_THREAD_LIMIT=1"}, false},
		{"operator's own value", []string{"OMP_THREAD_LIMIT=4"}, false},
		{"set empty", []string{"OMP_THREAD_LIMIT="}, false},
		{"a longer name only", []string{"OMP_THREAD_LIMIT_X=1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, added := withThreadLimit(tc.environ)
			if added != tc.added {
				t.Fatalf("added = %v, want %v", added, tc.added)
			}
			want := tc.environ
			if tc.added {
				want = append(slices.Clone(tc.environ), threadLimit)
			}
			if !slices.Equal(got, want) {
				t.Errorf("environment %q, want %q", got, want)
			}
		})
	}
}

// A process started without OMP_THREAD_LIMIT starts itself again with
// it: this test runs its own binary as that process (the helper below).
func TestReexecWithThreadLimit(t *testing.T) {
	if os.Getenv("CLI_REEXEC_HELPER") == "1" {
		if err := reexecWithThreadLimit(); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		// Reached only with the variable already set: the second start.
		fmt.Println("limit:", os.Getenv("OMP_THREAD_LIMIT"), "pid:", os.Getpid())
		os.Exit(0)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OMP_THREAD_LIMIT=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReexecWithThreadLimit$")
	cmd.Env = append(env, "CLI_REEXEC_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "limit: 1 ") {
		t.Errorf("the helper did not start again with OMP_THREAD_LIMIT=1:\n%s", out)
	}
}
