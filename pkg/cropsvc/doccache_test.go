package cropsvc

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"testing"
	"time"

	"docsuite/pkg/decode"
	"docsuite/pkg/synth"
)

// TestIdleCacheRemovesTemporaryCopies opens a PDF through the cache, as a
// crop request does, and sends nothing more: the PDF's temporary copy (a
// client's document on disk) must be gone soon after the cache's TTL, not
// wait for the next request.
func TestIdleCacheRemovesTemporaryCopies(t *testing.T) {
	page := image.NewRGBA(image.Rect(0, 0, 200, 280))
	for i := range page.Pix {
		page.Pix[i] = 230
	}
	page.Set(10, 10, color.Black)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, page, nil); err != nil {
		t.Fatal(err)
	}
	pdf, err := synth.BuildPDF([][]byte{jpg.Bytes()}, [][2]int{{200, 280}}, 100)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	const ttl = time.Second
	c := newDocCache(4, ttl)
	defer c.close()
	doc, release, err := c.get(context.Background(), "tasks/a/input", func(ctx context.Context) (decode.Document, error) {
		return decode.Open(ctx, pdf, decode.Options{TempDir: tmp})
	})
	if err != nil {
		t.Skipf("poppler not usable: %v", err)
	}
	if _, err := doc.Page(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	release()
	if n := entries(t, tmp); n != 1 {
		t.Fatalf("%d files in the temporary folder while the document is cached, want its copy", n)
	}
	deadline := time.Now().Add(5 * ttl)
	for entries(t, tmp) > 0 && time.Now().Before(deadline) {
		time.Sleep(ttl / 4)
	}
	if n := entries(t, tmp); n > 0 {
		t.Errorf("%d files left in the temporary folder %v after the cache's TTL of %v with no request", n, 5*ttl, ttl)
	}
}

func entries(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}
