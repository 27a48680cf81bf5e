package decode

import (
	"bytes"
	"context"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
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

// encoded is what f writes, an encoder of a test image.
func encoded(t *testing.T, f func(*bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// firstPage is the first page of the file data, as the cropper gets it.
func firstPage(t *testing.T, data []byte) image.Image {
	t.Helper()
	return firstPageWith(t, data, Options{})
}

// firstPageWith is the first page of the file data opened with opts.
func firstPageWith(t *testing.T, data []byte, opts Options) image.Image {
	t.Helper()
	ctx := context.Background()
	doc, err := Open(ctx, data, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer doc.Close()
	img, err := doc.Page(ctx, 0)
	if err != nil {
		t.Fatalf("page: %v", err)
	}
	return img
}

// formatFiles returns a reader of testutil.FormatFiles' files by name.
func formatFiles(t *testing.T) func(name string) []byte {
	t.Helper()
	files := testutil.FormatFiles(t)
	return func(name string) []byte {
		b, err := os.ReadFile(files[name])
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}
