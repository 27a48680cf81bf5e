package main

import (
	"bytes"
	"crypto/rand"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// TestEveryFormatThroughClassify posts a file of every accepted format,
// made by the tools users' files come from, and checks the page counts
// and the page of every item.
func TestEveryFormatThroughClassify(t *testing.T) {
	files := testutil.FormatFiles(t)
	in := startAllInOne(t, nil)
	tests := []struct {
		file  string
		query string
		pages int
	}{
		{"page.jpg", "", 1}, {"page.png", "", 1}, {"page.gif", "", 1}, {"page.tiff", "", 2},
		{"page_jpeg.tiff", "", 1}, {"page_cmyk.tiff", "", 1},
		{"page.bmp", "", 1}, {"page_rle.bmp", "", 1}, {"page.heic", "", 1}, {"page.heif", "", 1},
		{"page.pdf", "", 1}, {"page_rot.pdf", "", 1}, {"three.pdf", "", 3}, {"three.pdf", "?pdf_raw_images=false&dpi=100&quality=60", 3},
		{"text.pdf", "?dpi=150", 1}, {"p1.djvu", "", 1}, {"two.djvu", "?dpi=100", 2},
	}
	for _, tc := range tests {
		t.Run(tc.file+tc.query, func(t *testing.T) {
			data, err := os.ReadFile(files[tc.file])
			if err != nil {
				t.Fatal(err)
			}
			status, body := in.post(t, "/pipelines/run/classify"+tc.query, "image", data)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, body)
			}
			checkPages(t, body, tc.pages)
		})
	}
}

// checkPages checks pages_count, page_count and that every page has at
// least one item and no item names a page outside the file.
func checkPages(t *testing.T, body map[string]any, pages int) {
	t.Helper()
	if body["pages_count"] != float64(pages) || body["page_count"] != float64(pages) {
		t.Fatalf("pages_count %v page_count %v, want %d", body["pages_count"], body["page_count"], pages)
	}
	seen := map[int]bool{}
	items, _ := body["items"].([]any)
	last := 0
	for _, it := range items {
		p := int(it.(map[string]any)["document"].(map[string]any)["page"].(float64))
		if p < 1 || p > pages || p < last {
			t.Errorf("item on page %d of %d (after page %d)", p, pages, last)
		}
		seen[p], last = true, p
	}
	if len(seen) != pages {
		t.Errorf("items on %d of %d pages", len(seen), pages)
	}
}

// TestBrokenFilesAre4xx sends files that must be refused with a JSON 4xx
// in bounded time, and checks the service still serves afterwards.
func TestBrokenFilesAre4xx(t *testing.T) {
	files := testutil.FormatFiles(t)
	in := startAllInOne(t, map[string]string{"MAX_PAGES": "2", "MAX_FILE_PIXELS": "150000000"})
	jpg, _ := os.ReadFile(files["page.jpg"])
	three, _ := os.ReadFile(files["three.pdf"])
	noise := make([]byte, 20000)
	_, _ = rand.Read(noise)
	tests := []struct {
		name  string
		data  []byte
		query string
		errno float64
	}{
		{"random bytes", noise, "", 14},
		{"truncated jpeg", jpg[:len(jpg)/2], "", 15},
		{"png header then garbage", append([]byte("\x89PNG\r\n\x1a\n"), noise...), "", 15},
		{"pdf header then garbage", append([]byte("%PDF-1.7\n"), noise...), "", 15},
		{"png bomb 30000x30000", testutil.PNGBomb(30000, 30000), "", 18},
		{"pdf page of 200 inches", testutil.HugePagePDF(14400), "", 18},
		{"pdf over a page limit of 2", three, "", 17},
		// Decoded page after page before MAX_FILE_PIXELS (200; with 100
		// such pages, 503 after the whole of PIPELINE_TIMEOUT).
		{"tiff of 2 pages of 100 MP over MAX_FILE_PIXELS", testutil.TIFFPages(2, 10000, 10000), "", 18},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := in.post(t, "/pipelines/run/classify"+tc.query, "image", tc.data)
			if status < 400 || status > 499 || body["errno"] != tc.errno {
				t.Fatalf("got %d %v, want a 4xx with errno %v", status, body, tc.errno)
			}
		})
	}
	if s, b := in.post(t, "/pipelines/run/classify", "image", jpg); s != http.StatusOK {
		t.Errorf("after broken files: %d %v", s, b)
	}
}

// TestRealdataMultiPage sends every PDF and DJVU of the shared real data
// through the endpoint and checks the page counts against poppler and
// djvulibre.
func TestRealdataMultiPage(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata", "*", "*"))
	var multi []string
	for _, p := range paths {
		// Files under MIN_FILE_BYTES (1 KB) are refused with 415 by contract.
		if st, err := os.Stat(p); err != nil || st.Size() < 1024 {
			continue
		}
		if ext := strings.ToLower(filepath.Ext(p)); ext == ".pdf" || ext == ".djvu" {
			multi = append(multi, p)
		}
	}
	if len(multi) == 0 {
		t.Skip("no shared real data")
	}
	in := startAllInOne(t, nil)
	for _, p := range multi {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			status, body := in.post(t, "/pipelines/run/classify?dpi=100&return_crops=false", "image", data)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, body)
			}
			checkPages(t, body, toolPages(t, p))
		})
	}
}

// toolPages is the page count poppler or djvulibre reports.
func toolPages(t *testing.T, path string) int {
	t.Helper()
	if strings.HasSuffix(strings.ToLower(path), ".djvu") {
		out, err := exec.Command("djvused", path, "-e", "n").Output()
		n, convErr := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil || convErr != nil {
			t.Fatalf("djvused: %v %v", err, convErr)
		}
		return n
	}
	out, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatalf("pdfinfo: %v", err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "Pages:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Fatal("pdfinfo gave no page count")
	return 0
}

// TestTransparentPaperKeepsTheType posts a factory scan, its paper
// whitened, as an opaque PNG and with its white made transparent, as
// ImageMagick writes a PDF converted to PNG: each pixel is stored as ink of
// some opacity over no paper, so that laid on white it is the opaque scan
// again (laid on black, the paper and the black print alike are black). A
// viewer shows the two alike, and both must be answered the document's
// type.
func TestTransparentPaperKeepsTheType(t *testing.T) {
	in := startAllInOne(t, nil)
	const typ = "inn_organisation"
	up, _ := factoryScan(t, typ, 0)
	b := up.Bounds()
	opaque := image.NewNRGBA(b)
	transparent := image.NewNRGBA(b)
	clear := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(up.At(x, y)).(color.NRGBA)
			// The factory's paper is off-white: channels from 200 up
			// become white.
			whiten := func(v uint8) uint8 { return uint8(min(255, int(v)*255/200)) }
			c = color.NRGBA{R: whiten(c.R), G: whiten(c.G), B: whiten(c.B), A: 255}
			opaque.SetNRGBA(x, y, c)
			// Alpha is how far the darkest channel is from white; each
			// channel keeps what it must for c = ink*a + white*(1-a).
			a := 255 - int(min(c.R, c.G, c.B))
			ink := func(v uint8) uint8 {
				if a == 0 {
					return 0
				}
				return uint8(255 - (255-int(v))*255/a)
			}
			if a == 0 {
				clear++
			}
			transparent.SetNRGBA(x, y, color.NRGBA{R: ink(c.R), G: ink(c.G), B: ink(c.B), A: uint8(a)})
		}
	}
	if share := float64(clear) / float64(b.Dx()*b.Dy()); share < 0.3 {
		t.Fatalf("only %.0f %% of the scan is transparent paper", 100*share)
	}
	answer := func(img image.Image) any {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		status, body := in.post(t, "/pipelines/run/classify?return_crops=false", "image", buf.Bytes())
		if status != http.StatusOK {
			t.Fatalf("status %d: %v", status, body)
		}
		items, _ := body["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("%d items: %v", len(items), body)
		}
		return items[0].(map[string]any)["document"].(map[string]any)["type"]
	}
	if got := answer(opaque); got != typ {
		t.Fatalf("the opaque scan is answered %v, want %s", got, typ)
	}
	if got := answer(transparent); got != typ {
		t.Errorf("the scan with transparent paper is answered %v, want %s", got, typ)
	}
}
