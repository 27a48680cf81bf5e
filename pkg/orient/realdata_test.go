package orient

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/decode"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// realdata is the shared folder of real photos and scans, beside the
// repository; the test skips when it is absent.
var realdata = filepath.Join("..", "..", "..", "shared", "realdata")

// TestRealdataEightWays turns every single-document real image of a
// catalogue type the eight ways (the whole image: most are tight scans or
// photos filling the frame) and measures how often the orienter names the
// code that undoes the turn. The real images are never trained on; the
// floor sits a few images below the figure measured (289 of 344, 0.840,
// docs/models.md) so that a regression fails.
func TestRealdataEightWays(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	f, err := os.Open(filepath.Join(realdata, "manifest.csv"))
	if err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	o := open(t)
	n, right := 0, 0
	for _, rec := range recs[1:] {
		types := strings.Split(rec[4], ";")
		if len(types) != 1 || doctypes.IsSpecial(types[0]) || !doctypes.Known(types[0]) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(realdata, rec[0]))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := decode.Open(context.Background(), data, decode.Options{MaxPages: 100, TempDir: t.TempDir()})
		if err != nil {
			continue // the format tests cover files that do not decode
		}
		img, err := doc.Page(context.Background(), 0)
		doc.Close()
		if err != nil {
			continue
		}
		wrong := ""
		for s := geom.Rotation(0); s < geom.NumRotations; s++ {
			turned, err := cvimg.Turn(img, s)
			if err != nil {
				t.Fatal(err)
			}
			r, _, err := o.Orient(context.Background(), turned)
			if err != nil {
				t.Fatal(err)
			}
			n++
			if r == s.Inverse() {
				right++
			} else {
				wrong += " " + s.String() + "→" + r.String()
			}
		}
		if wrong != "" {
			t.Logf("%s (turned → answered):%s", rec[0], wrong)
		}
	}
	acc := float64(right) / float64(max(n, 1))
	t.Logf("real images turned 8 ways: %d of %d right (%.3f)", right, n, acc)
	if acc < 0.82 {
		t.Errorf("orientation on real images %.3f, want at least 0.82", acc)
	}
}
