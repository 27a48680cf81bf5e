package ocr

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// TestNoInvertSkipsOnlyItsOwnRead reads a line printed light on dark, which
// Tesseract reads only by its second, inverted reading: with NoInvert the
// read must not find it, and the reads before and after it, with the
// engine's default, must (the option is the read's own, not left on the
// pooled engine for the extraction's fields).
func TestNoInvertSkipsOnlyItsOwnRead(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "700x70", "xc:black", "-font", "DejaVu-Sans", "-pointsize", "32", "-fill", "white",
		"-annotate", "+20+48", "ПАСПОРТ ГРАЖДАНИНА", "field.png")
	img := testutil.DecodeImage(t, filepath.Join(dir, "field.png"))
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	for i, tc := range []struct {
		opt  FieldOptions
		read bool
	}{
		{FieldOptions{}, true},
		{FieldOptions{NoInvert: true}, false},
		{FieldOptions{}, true},
	} {
		text, _, err := e.ReadField(context.Background(), img, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text, "ПАСПОРТ"); got != tc.read {
			t.Errorf("read %d (%+v): %q, want the word read: %v", i+1, tc.opt, text, tc.read)
		}
	}
}
