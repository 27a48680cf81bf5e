package decode

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// expectedPages asks the format's own tools for the page count.
func expectedPages(t *testing.T, path, ext string) int {
	t.Helper()
	var out []byte
	var err error
	if ext == ".pdf" {
		out, err = exec.Command("pdfinfo", path).Output()
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, "Pages:"); ok {
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				return n
			}
		}
	} else {
		out, err = exec.Command("djvused", path, "-e", "n").Output()
		if n, convErr := strconv.Atoi(strings.TrimSpace(string(out))); convErr == nil {
			return n
		}
	}
	t.Fatalf("no page count for %s: %v", path, err)
	return 0
}
