package tasks

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepRemovesPartialWrites: the temporary file of a folder store's
// Put that a killed process never finished holds the object's bytes so far
// (a client's file, a crop of it) and no listing shows it. The janitor's
// sweep removes it once older than its cutoff, as it does objects; it
// stayed until the next start of a process opening the store an hour on
// (NewFolder), for good on a process restarted at once and then left
// running. A Put under way (written to recently) stays.
func TestSweepRemovesPartialWrites(t *testing.T) {
	e := newEnv(t)
	_, records := e.janitor(t)
	maxAge := 10 * time.Minute // PIPELINE_TIMEOUT + COMPLETED_TASK_TTL_SECONDS
	tests := []struct {
		name string
		path string // under the store's root
		age  time.Duration
		gone bool
	}{
		{"input of a killed upload", "tasks/killed1/.put-1", maxAge + time.Minute, true},
		{"crop of a killed worker", "tasks/killed2/.put-2", maxAge + time.Minute, true},
		{"result of a killed runner", "results/.put-3", maxAge + time.Minute, true},
		{"a put under way", "tasks/live/.put-4", time.Second, false},
	}
	now := time.Now()
	for _, tc := range tests {
		p := filepath.Join(e.dir, filepath.FromSlash(tc.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("passport page"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-tc.age), now.Add(-tc.age)); err != nil {
			t.Fatal(err)
		}
	}
	removed := 0
	for _, s := range Sweep(t.Context(), e.store, records, now.Add(-maxAge)) {
		if s.Err != nil {
			t.Fatalf("sweep of %s: %v", s.Prefix, s.Err)
		}
		if s.Prefix == PartialWrites {
			removed = s.Objects
		}
	}
	want := 0
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(e.dir, filepath.FromSlash(tc.path))
			_, err := os.Stat(p)
			if gone := os.IsNotExist(err); gone != tc.gone {
				t.Errorf("%s: removed %t, want %t (%v)", tc.path, gone, tc.gone, err)
			}
			if tc.gone {
				// Its folder, named by the task, goes with it.
				if _, err := os.Stat(filepath.Dir(p)); filepath.Base(filepath.Dir(p)) != "results" && !os.IsNotExist(err) {
					t.Errorf("%s: folder left (%v)", tc.path, err)
				}
			}
		})
		if tc.gone {
			want++
		}
	}
	if removed != want {
		t.Errorf("sweep reports %d partial writes removed, want %d", removed, want)
	}
}
