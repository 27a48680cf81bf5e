package cli

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestParseMemoryLimit(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2147483648\n", 2147483648, true},
		{"max\n", 0, false},                 // cgroup v2 without a limit
		{"9223372036854771712\n", 0, false}, // cgroup v1 without a limit
		{"", 0, false},
		{"0", 0, false},
		{"lots", 0, false},
	}
	for _, c := range cases {
		got, ok := parseMemoryLimit(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("parseMemoryLimit(%q) = %d, %t; want %d, %t", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestHoldHeapUnderContainerLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	dir := t.TempDir()
	none := filepath.Join(dir, "v2-none")
	limited := filepath.Join(dir, "v1-2g")
	if err := os.WriteFile(none, []byte("max\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(limited, []byte("2147483648\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unset := func(string) string { return "" }

	// v2 says no limit, v1 says 2 GiB: the heap is held under 1.5 GiB.
	got, ok := holdHeapUnderContainerLimit(unset, []string{filepath.Join(dir, "missing"), none, limited})
	if !ok || got != 1610612736 || debug.SetMemoryLimit(-1) != 1610612736 {
		t.Errorf("limit %d, %t; runtime %d; want 1610612736 set", got, ok, debug.SetMemoryLimit(-1))
	}
	// GOMEMLIMIT set by the operator wins.
	debug.SetMemoryLimit(math.MaxInt64)
	if _, ok := holdHeapUnderContainerLimit(func(string) string { return "1GiB" }, []string{limited}); ok ||
		debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Error("a limit was set over GOMEMLIMIT")
	}
	// No container limit: nothing set.
	if _, ok := holdHeapUnderContainerLimit(unset, []string{none}); ok || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Error("a limit was set without a container limit")
	}
}
