package decode

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepTemp: what decoding left behind and is older than the limit
// goes; younger entries, and files that are not decoding's, stay.
func TestSweepTemp(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-2 * time.Hour)
	entries := []struct {
		name  string
		dir   bool
		mtime time.Time
		gone  bool
	}{
		{"docsuite-123.pdf", false, old, true},
		{"docsuite-456.djvu", false, old, true},
		{"docsuite-pdfimg-789", true, old, true},
		{"docsuite-999.pdf", false, now.Add(-time.Minute), false},
		{"docsuite-pdfimg-111", true, now.Add(-time.Minute), false},
		{"someone-else.pdf", false, old, false},
		{"docsuite-notes.txt", false, old, false},
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		if e.dir {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p, "img-000.png"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, []byte("%PDF-"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, e.mtime, e.mtime); err != nil {
			t.Fatal(err)
		}
	}
	n, err := SweepTemp(dir, time.Hour, now)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("removed %d entries, want 3", n)
	}
	for _, e := range entries {
		_, err := os.Stat(filepath.Join(dir, e.name))
		if gone := os.IsNotExist(err); gone != e.gone {
			t.Errorf("%s: removed %t, want %t", e.name, gone, e.gone)
		}
	}
}
