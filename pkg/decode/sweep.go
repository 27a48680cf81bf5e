package decode

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The names Open gives what it writes to its TempDir: the copy of a posted
// PDF or DJVU, and the folder a PDF page's image is extracted to.
const (
	pdfCopyPattern  = "docsuite-*.pdf"
	djvuCopyPattern = "docsuite-*.djvu"
	pdfImagePattern = "docsuite-pdfimg-*"
)

// tempPatterns are the names SweepTemp looks for.
var tempPatterns = []string{pdfCopyPattern, djvuCopyPattern, pdfImagePattern}

// SweepTemp removes from dir (the system's temporary folder when empty)
// what decoding wrote there and has not been modified for longer than
// olderThan: a process killed while it decoded (kill -9, a crash, the
// machine's power) never removed them, and nothing else would. Entries
// still in use are younger than any sane olderThan (a copy lives while its
// pages are cut, a request's PIPELINE_TIMEOUT a try). It returns how many
// entries it removed.
func SweepTemp(dir string, olderThan time.Duration, now time.Time) (int, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	removed := 0
	for _, pat := range tempPatterns {
		matches, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return removed, fmt.Errorf("decode: sweep %s: %w", dir, err)
		}
		for _, m := range matches {
			st, err := os.Lstat(m)
			if err != nil || now.Sub(st.ModTime()) <= olderThan {
				continue
			}
			if err := os.RemoveAll(m); err != nil {
				return removed, fmt.Errorf("decode: sweep: %w", err)
			}
			removed++
		}
	}
	return removed, nil
}
