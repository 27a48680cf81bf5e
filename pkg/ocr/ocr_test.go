package ocr

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// TestReadsPrintedText renders Russian and English lines with ImageMagick
// and reads them back.
func TestReadsPrintedText(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "900x300", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "36", "-fill", "black",
		"-annotate", "+40+80", "ПАСПОРТ ГРАЖДАНИНА", "-annotate", "+40+160", "HELLO WORLD 2026", "-annotate", "+40+240", "Санкт-Петербург 12.05.2019", "page.png")
	img := testutil.DecodeImage(t, filepath.Join(dir, "page.png"))
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	page, err := e.Read(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%q", page.Text)
	for _, want := range []string{"ПАСПОРТ", "ГРАЖДАНИНА", "HELLO", "WORLD", "2026", "Санкт-Петербург", "12.05.2019"} {
		if !strings.Contains(page.Text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if len(page.Lines) != 3 {
		t.Fatalf("%d lines, want 3: %+v", len(page.Lines), page.Lines)
	}
	for i, l := range page.Lines {
		top := l.Coords[0][1]
		if top < 80*i || top > 80*(i+1) || l.Coords[3][0] > 900 || l.Confidence <= 0.5 || l.Confidence > 1 {
			t.Errorf("line %d %q: coords %v confidence %v", i, l.Text, l.Coords, l.Confidence)
		}
	}
}
