package decode

import (
	"bytes"
	"context"
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// TestJPEGCutShort checks the JPEG files that do not end as they should:
// one lacking only its end-of-image marker (left off by some phone apps
// and interrupted writers, shown whole by every viewer) is read, pixel
// for pixel the file with it; one cut inside its image data is refused
// as corrupt, saying it was cut short, not answered as half a picture.
func TestJPEGCutShort(t *testing.T) {
	whole, err := os.ReadFile(testutil.FormatFiles(t)["page.jpg"])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(whole, jpegEnd) {
		t.Fatal("the test file does not end with the end-of-image marker")
	}
	want := decodePage(t, whole)
	// The same picture progressive: its scans each refine the whole.
	testutil.Need(t, "convert")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.jpg"), whole, 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, dir, "convert", "b.jpg", "-interlace", "Plane", "p.jpg")
	prog, err := os.ReadFile(filepath.Join(dir, "p.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if jpegBaseline(prog) || !jpegBaseline(whole) {
		t.Fatal("the frame types are not told apart")
	}
	tests := []struct {
		name    string
		data    []byte
		wantErr string // "" when the page must decode as the whole file
	}{
		{"end marker missing", whole[:len(whole)-2], ""},
		{"cut at nine tenths", whole[:len(whole)*9/10], "cut short"},
		{"cut in half", whole[:len(whole)/2], "cut short"},
		{"progressive, end marker missing", prog[:len(prog)-2], "cut short"},
		{"progressive, cut in half", prog[:len(prog)/2], "cut short"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(context.Background(), tc.data, Options{})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer doc.Close()
			img, err := doc.Page(context.Background(), 0)
			if tc.wantErr != "" {
				if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want ErrCorrupt saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !samePixels(img, want) {
				t.Error("the page differs from the whole file's")
			}
		})
	}
}

// decodePage decodes the first page of a file.
func decodePage(t *testing.T, data []byte) image.Image {
	t.Helper()
	doc, err := Open(context.Background(), data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.Page(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// samePixels compares two images pixel by pixel.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
