package cropsvc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// An indirect DjVu document is an index file naming its pages, each a
// file of its own: an upload carries the index only. The client was told
// "File cannot be decoded" with "djvu: 60 pages but 0 page headers";
// it must be told what the file is and what to send instead.
func TestIndirectDJVUSaysWhatToSend(t *testing.T) {
	testutil.Need(t, "c44", "djvm", "djvmcvt")
	dir := t.TempDir()
	testutil.WritePNG(t, dir, "page.png", testutil.TestPage(240, 320))
	testutil.Run(t, dir, "convert", "page.png", "page.ppm")
	testutil.Run(t, dir, "c44", "-dpi", "100", "page.ppm", "p1.djvu")
	testutil.Run(t, dir, "djvm", "-c", "two.djvu", "p1.djvu", "p1.djvu")
	if err := os.Mkdir(filepath.Join(dir, "ind"), 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, dir, "djvmcvt", "-i", "two.djvu", "ind", "index.djvu")
	data, err := os.ReadFile(filepath.Join(dir, "ind", "index.djvu"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decode.Open(context.Background(), data, decode.Options{TempDir: t.TempDir()})
	if err == nil {
		doc.Close()
		t.Fatal("an indirect DjVu index opened")
	}
	t.Logf("decode: %v", err)
	var ae *apierr.Error
	if !errors.As(DecodeError(err), &ae) {
		t.Fatalf("not a catalogue error: %v", err)
	}
	if ae.Code != apierr.UnsupportedFormat {
		t.Errorf("errno of %v, want unsupported_format", ae.Code)
	}
	if m := strings.ToLower(ae.Message); !strings.Contains(m, "indirect") || !strings.Contains(m, "bundled") {
		t.Errorf("message %q does not say the file is an indirect DjVu and to send a bundled one", ae.Message)
	}
}
