package roles

import (
	"runtime"
	"testing"

	"docsuite/pkg/config"
)

// TestWorkerSize checks how many requests a worker takes at once: the
// configured WORKER_CONCURRENCY, else the CPUs the process may use
// (GOMAXPROCS, which follows a container's CPU limit), not the host's
// CPU count.
func TestWorkerSize(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // as in a container limited to one CPU
	for _, tc := range []struct {
		name        string
		concurrency int
		want        int
	}{
		{"configured", 3, 3},
		{"default: the process's CPUs", 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := workerSize(config.Worker{Concurrency: tc.concurrency}); got != tc.want {
				t.Errorf("WORKER_CONCURRENCY=%d: %d requests at once, want %d (host CPUs %d)", tc.concurrency, got, tc.want, runtime.NumCPU())
			}
		})
	}
}
