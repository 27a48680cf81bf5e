package quality

import (
	"encoding/csv"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDumpStats(t *testing.T) {
	f, err := os.Open("/work/shared/realdata/manifest.csv")
	if err != nil {
		t.Skip()
	}
	recs, _ := csv.NewReader(f).ReadAll()
	for _, r := range recs[1:] {
		ext := strings.ToLower(filepath.Ext(r[0]))
		if ext != ".jpg" && ext != ".png" && ext != ".jpeg" {
			continue
		}
		fh, _ := os.Open(filepath.Join("/work/shared/realdata", r[0]))
		img, _, err := image.Decode(fh)
		fh.Close()
		if err != nil {
			continue
		}
		s := Measure(img)
		g, _, _ := grayOf(img)
		h := g.histogram()
		t.Logf("%-50.50s hi %.2f lo %.2f sh %.2f side %d | p1 %d p50 %d p99 %d lit128 %.2f", r[0], s.ExposureHigh, s.ExposureLow, s.Sharpness, s.ShortSide,
			h.percentile(0.01), h.percentile(0.5), h.percentile(0.99), h.share(128))
	}
}
