package main

import (
	"bytes"
	"compress/zlib"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/crc32"
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
		{"page.jpg", "", 1}, {"page.png", "", 1}, {"page.gif", "", 1}, {"page.tiff", "", 1},
		{"page.bmp", "", 1}, {"page_rle.bmp", "", 1}, {"page.heic", "", 1}, {"page.heif", "", 1},
		{"page.pdf", "", 1}, {"three.pdf", "", 3}, {"three.pdf", "?pdf_raw_images=false&dpi=100&quality=60", 3},
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
	in := startAllInOne(t, map[string]string{"MAX_PAGES": "2"})
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
		{"png bomb 30000x30000", pngBomb(t, 30000, 30000), "", 18},
		{"pdf page of 200 inches", append(hugePagePDF(14400), bytes.Repeat([]byte("%padding\n"), 200)...), "", 18},
		{"pdf over a page limit of 2", three, "", 17},
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

// pngBomb is a valid 1-bit PNG header of w×h pixels with a little pixel
// data: a few hundred bytes that a naive decoder expands to gigabytes.
func pngBomb(t *testing.T, w, h int) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&out, binary.BigEndian, uint32(len(data)))
		out.WriteString(typ)
		out.Write(data)
		_ = binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 1 // 1-bit greyscale
	chunk("IHDR", ihdr)
	chunk("tEXt", append([]byte("Comment\x00"), bytes.Repeat([]byte("x"), 2048)...)) // over MIN_FILE_BYTES
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 1+(w+7)/8))
	_ = zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// hugePagePDF is a one-page PDF whose page is side×side points.
func hugePagePDF(side int) []byte {
	var b bytes.Buffer
	var offs []int
	for _, o := range []string{
		"1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n",
		"2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n",
		fmt.Sprintf("3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] >> endobj\n", side, side),
	} {
		if b.Len() == 0 {
			b.WriteString("%PDF-1.4\n")
		}
		offs = append(offs, b.Len())
		b.WriteString(o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes()
}
