package roles

import (
	"context"
	"encoding/csv"
	"image"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"docsuite/pkg/decode"
)

// BenchmarkZoneRead times (wall and CPU) the classifier's text reading (orientation from
// text lines, line count and zone) on the first real files of the shared
// folder, one page each, decoded beforehand.
func BenchmarkZoneRead(b *testing.B) {
	f, err := os.Open(filepath.Join(realdata, "manifest.csv"))
	if err != nil {
		b.Skipf("realdata not available: %v", err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	zr := openTestZoneReader(b, testModels(true))
	var imgs []image.Image
	for _, r := range rows[1:] {
		if len(imgs) == 20 {
			break
		}
		data, err := os.ReadFile(filepath.Join(realdata, r[0]))
		if err != nil {
			continue
		}
		doc, err := decode.Open(context.Background(), data, decode.Options{TempDir: b.TempDir()})
		if err != nil {
			continue
		}
		img, err := doc.Page(context.Background(), 0)
		doc.Close()
		if err == nil {
			imgs = append(imgs, img)
		}
	}
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, img := range imgs {
			if _, _, _, err := zr.Read(context.Background(), img); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(imgs)), "ms/page")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Milliseconds())/float64(b.N*len(imgs)), "cpu-ms/page")
}

// cpuTime is the CPU time the process has used so far: on a shared
// machine it measures the work better than the wall clock.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
