package cli

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// memoryLimitShare is the share of its container's memory limit under
// which a role holds its Go heap when GOMEMLIMIT is not set: the garbage
// collector then works harder as the heap nears the limit instead of
// letting a large page's short-lived images push the process over it
// (the rest is left to ONNX Runtime, OpenCV and Tesseract, whose memory
// the Go runtime does not count).
const memoryLimitShare = 0.75

// cgroupMemoryFiles hold a container's memory limit: cgroup v2's
// memory.max, then cgroup v1's limit.
var cgroupMemoryFiles = []string{
	"/sys/fs/cgroup/memory.max",
	"/sys/fs/cgroup/memory/memory.limit_in_bytes",
}

// parseMemoryLimit reads a cgroup memory limit file's content: a byte
// count, or "max" (v2) or a number near the largest int64 (v1) when the
// container has none.
func parseMemoryLimit(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n >= 1<<60 {
		return 0, false
	}
	return n, true
}

// containerMemoryLimit returns the first limit found in files.
func containerMemoryLimit(files []string) (int64, bool) {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if n, ok := parseMemoryLimit(string(b)); ok {
			return n, true
		}
	}
	return 0, false
}

// holdHeapUnderContainerLimit sets the Go runtime's soft memory limit to
// memoryLimitShare of the container's memory limit, unless GOMEMLIMIT
// (read through getenv) already sets one or no limit is found in files.
// It returns the limit set.
func holdHeapUnderContainerLimit(getenv func(string) string, files []string) (int64, bool) {
	if getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	n, ok := containerMemoryLimit(files)
	if !ok {
		return 0, false
	}
	limit := int64(float64(n) * memoryLimitShare)
	debug.SetMemoryLimit(limit)
	return limit, true
}
