package crop

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // realdata decoders
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/geom"
	"docsuite/pkg/testutil"
)

// realdata is the shared folder of real photos and scans; tests that read
// it skip when it is absent.
const realdata = "/work/shared/realdata"

type manifestRow struct {
	path  string
	types []string
}

func readManifest(t *testing.T) []manifestRow {
	t.Helper()
	f, err := os.Open(filepath.Join(realdata, "manifest.csv"))
	if err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("read manifest: %v", err)
	}
	var rows []manifestRow
	for _, r := range recs[1:] {
		rows = append(rows, manifestRow{path: r[0], types: strings.Split(r[4], ";")})
	}
	return rows
}

func decodeFile(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	return img, err
}

// TestRealdataReport prints, for every JPEG and PNG in realdata, how many
// items the simple cropper gives (found documents, or 1 for the whole page)
// against the manifest's count, and the IoU against the ground-truth quads
// where there are some. It fails only when nothing matches at all.
func TestRealdataReport(t *testing.T) {
	rows := readManifest(t)
	gt := map[string]struct {
		Objects []struct {
			Quad [][2]float64 `json:"quad"`
		} `json:"objects"`
	}{}
	if b, err := os.ReadFile(filepath.Join(realdata, "groundtruth_quads.json")); err == nil {
		if err := json.Unmarshal(b, &gt); err != nil {
			t.Fatalf("groundtruth: %v", err)
		}
	}
	var n, exact int
	var total time.Duration
	for _, r := range rows {
		ext := strings.ToLower(filepath.Ext(r.path))
		if ext != ".jpg" && ext != ".jpeg" && ext != ".png" {
			continue
		}
		img, err := decodeFile(filepath.Join(realdata, r.path))
		if err != nil {
			t.Logf("%-60s decode: %v", r.path, err)
			continue
		}
		start := time.Now()
		found, err := Simple(img, SimpleOptions{})
		el := time.Since(start)
		if err != nil {
			t.Errorf("%s: %v", r.path, err)
			continue
		}
		total += el
		n++
		items := max(1, len(found))
		want := len(r.types)
		mark := "  "
		if items == want {
			exact++
		} else {
			mark = "!="
		}
		line := ""
		if g, ok := gt[r.path]; ok {
			for _, o := range g.Objects {
				// Ground truth is TL, TR, BR, BL (ring order).
				q := geom.Quad{{X: o.Quad[0][0], Y: o.Quad[0][1]}, {X: o.Quad[1][0], Y: o.Quad[1][1]},
					{X: o.Quad[3][0], Y: o.Quad[3][1]}, {X: o.Quad[2][0], Y: o.Quad[2][1]}}
				best := 0.0
				for _, f := range found {
					best = math.Max(best, geom.IoU(q, f.Quad))
				}
				line += ftoa(best) + " "
			}
			line = " IoU: " + line
		}
		b := img.Bounds()
		areas := ""
		for _, f := range found {
			areas += ftoa(math.Round(100*f.Quad.Area()/float64(b.Dx()*b.Dy()))) + "% "
		}
		t.Logf("%s %-58.58s %5dx%-5d items %d want %d  %6.1f ms areas %s%s", mark, r.path, b.Dx(), b.Dy(), items, want,
			float64(el.Microseconds())/1000, areas, line)
	}
	if n == 0 {
		t.Skip("no decodable realdata images")
	}
	t.Logf("item count equal to manifest on %d of %d images; mean %.1f ms per image", exact, n,
		float64(total.Microseconds())/1000/float64(n))
	if exact == 0 {
		t.Fatal("no image gave the manifest's item count")
	}
}

func ftoa(f float64) string {
	b, _ := json.Marshal(math.Round(f*1000) / 1000)
	return string(b)
}

// TestNeuralLeavesAFrameFillingCardWhole posts, in process, a real driving
// licence back that fills its picture (a scan cut to the card), shrunk and
// saved as JPEG as a phone or a PDF at 72 dpi gives it. cropnet sees hardly
// any interior on it; at 758 pixels it once returned a 1 % sliver of the
// card's margin at the frame as the page's only document, so the card was
// answered as that sliver. The page must stay whole: no document, or one
// covering most of it.
func TestNeuralLeavesAFrameFillingCardWhole(t *testing.T) {
	src := filepath.Join(realdata, "uN1ck-DataModel", "DataModel__Docs Examples__prava2.png")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	testutil.Need(t, "convert")
	n := openNeural(t, NeuralOptions{})
	dir := t.TempDir()
	for _, width := range []int{600, 758, 900, 1200} {
		name := fmt.Sprintf("card_%d.jpg", width)
		testutil.Run(t, dir, "convert", src, "-flatten", "-resize", fmt.Sprintf("%dx", width), "-quality", "75", name)
		img, err := decodeFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		found, err := n.Find(context.Background(), img)
		if err != nil {
			t.Fatal(err)
		}
		page := float64(img.Bounds().Dx() * img.Bounds().Dy())
		for _, f := range found {
			if f.Quad.Area() < 0.5*page {
				t.Errorf("%d px: a document of %.1f %% of the page, want the page whole: %v", width, 100*f.Quad.Area()/page, found)
			}
		}
	}
}
