package decode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realdataDir is the shared folder of real photos and scans, read in place.
const realdataDir = "../../../shared/realdata"

// TestRealdataPageCounts opens every PDF and DJVU in the shared real data
// and decodes every page, checking the page count against poppler's and
// djvulibre's own count.
func TestRealdataPageCounts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(realdataDir, "*", "*"))
	if len(files) == 0 {
		t.Skip("no shared real data")
	}
	ctx := context.Background()
	n := 0
	for _, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		if ext != ".pdf" && ext != ".djvu" {
			continue
		}
		n++
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := expectedPages(t, f, ext)
		start := time.Now()
		doc, err := Open(ctx, data, Options{DPI: 150, PDFRawImages: true, AutoPDFRawImages: true})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if doc.Pages() != want {
			t.Errorf("%s: %d pages, want %d", filepath.Base(f), doc.Pages(), want)
		}
		for i := 0; i < doc.Pages(); i++ {
			img, err := doc.Page(ctx, i)
			if err != nil {
				t.Errorf("%s page %d: %v", filepath.Base(f), i+1, err)
				continue
			}
			if i == 0 {
				t.Logf("%s: %d pages, page 1 %v, %v", filepath.Base(f), doc.Pages(), img.Bounds().Size(), time.Since(start).Round(time.Millisecond))
			}
		}
		if err := doc.Close(); err != nil {
			t.Error(err)
		}
	}
	if n == 0 {
		t.Skip("no PDF or DJVU in the shared real data")
	}
}
