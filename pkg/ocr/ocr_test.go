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

// TestFirstFieldReadLikeTheRest reads the same two-line region as a single
// line (ReadField's default) three times with a fresh engine: every read
// must see one line. Before the engine was initialised up front, the
// first read of each engine lost its line mode to Tesseract's Init and
// came back as a block of two lines.
func TestFirstFieldReadLikeTheRest(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "700x140", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "32", "-fill", "black",
		"-annotate", "+20+50", "ПАСПОРТ ГРАЖДАНИНА", "-annotate", "+20+115", "HELLO WORLD 2026", "field.png")
	img := testutil.DecodeImage(t, filepath.Join(dir, "field.png"))
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	var texts []string
	for i := 0; i < 3; i++ {
		text, lines, err := e.ReadField(context.Background(), img, FieldOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 1 {
			t.Errorf("read %d: %d lines %q, want the region read as one line", i+1, len(lines), text)
		}
		texts = append(texts, text)
	}
	if texts[0] != texts[1] || texts[1] != texts[2] {
		t.Errorf("the same region read differently: %q", texts)
	}
}
