package decode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"docsuite/pkg/testutil"
)

// djvuHugeInfo rewrites the INFO chunk of a DJVU page to claim w×h pixels.
func djvuHugeInfo(t *testing.T, data []byte, w, h uint16) []byte {
	t.Helper()
	i := bytes.Index(data, []byte("INFO"))
	if i < 0 {
		t.Fatal("no INFO chunk")
	}
	out := bytes.Clone(data)
	binary.BigEndian.PutUint16(out[i+8:], w)
	binary.BigEndian.PutUint16(out[i+10:], h)
	return out
}

func TestLimits(t *testing.T) {
	read := formatFiles(t)
	tests := []struct {
		name  string
		data  []byte
		opts  Options
		limit string
		fit   int // FitDPI: the dpi at which the page fits, 0 where the dpi does not decide its size
	}{
		{"png bomb 30000x30000", testutil.PNGBomb(30000, 30000), Options{}, "pixels", 0},
		{"image over a lowered limit", read("page.jpg"), Options{MaxPixels: 240*320 - 1}, "pixels", 0},
		// 490 x 314 pixels stored, 490 x 654 once square (tiffres.go).
		{"fax over a lowered limit once its pixels are square", faxPage{x: 204, y: 98, write: faxBilevel}.bytes(t),
			Options{MaxPixels: 490 * 400}, "pixels", 0},
		{"tiff claiming 4e9 x 0.001 dpi", faxPage{x: 204, y: 98, write: faxBilevel, tags: []string{"282", "4e9", "283", "0.001"}}.bytes(t),
			Options{}, "pixels", 0},
		{"pdf page of 200 inches", testutil.HugePagePDF(14400), Options{}, "pixels", 49},
		{"three pages over a limit of two", read("three.pdf"), Options{MaxPages: 2}, "pages", 0},
		{"djvu pages over a limit of one", read("two.djvu"), Options{MaxPages: 1}, "pages", 0},
		{"tiff pages over a limit of one", read("page.tiff"), Options{MaxPages: 1}, "pages", 0},
		{"djvu page claiming 65000x65000", djvuHugeInfo(t, read("p1.djvu"), 65000, 65000), Options{DPI: 100}, "pixels", -1},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			doc, err := Open(ctx, tc.data, tc.opts)
			if err == nil {
				_, err = doc.Page(ctx, 0)
				_ = doc.Close()
			}
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != tc.limit {
				t.Fatalf("got %v, want a %s limit error", err, tc.limit)
			}
			if got := le.FitDPI(); tc.fit >= 0 && got != tc.fit || tc.fit < 0 && got < 1 {
				t.Errorf("FitDPI %d (page of %d pixels at dpi %d), want %d (-1: any below the dpi)", got, le.Value, le.DPI, tc.fit)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("allocated %d MB before refusing", grew>>20)
			}
		})
	}
}

func TestBadInputs(t *testing.T) {
	files := testutil.FormatFiles(t)
	jpg, err := os.ReadFile(files["page.jpg"])
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(files["page.pdf"])
	if err != nil {
		t.Fatal(err)
	}
	rnd := make([]byte, 50000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range rnd {
		rnd[i] = byte(r.IntN(256))
	}
	garbage := func(head string) []byte { return append([]byte(head), rnd...) }
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"random bytes", rnd, ErrUnsupported},
		{"empty", nil, ErrUnsupported},
		{"truncated jpeg", jpg[:len(jpg)/2], ErrCorrupt},
		{"jpeg header then garbage", append(bytes.Clone(jpg[:20]), rnd...), ErrCorrupt},
		{"png signature then garbage", garbage("\x89PNG\r\n\x1a\n"), ErrCorrupt},
		{"gif header then garbage", garbage("GIF89a\x10\x00\x10\x00"), ErrCorrupt},
		{"tiff header then garbage", garbage("II*\x00"), ErrCorrupt},
		{"bmp header then garbage", append([]byte("BM\x00\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00\x28\x00\x00\x00\x10\x00\x00\x00\x10\x00\x00\x00"), rnd...), ErrCorrupt},
		{"heic box then garbage", garbage("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"), ErrCorrupt},
		{"pdf header then garbage", garbage("%PDF-1.7\n"), ErrCorrupt},
		{"truncated pdf", pdf[:len(pdf)/3], ErrCorrupt},
		{"djvu header then garbage", garbage("AT&TFORM\x00\x01\x00\x00DJVM"), ErrCorrupt},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(ctx, tc.data, Options{})
			if err == nil {
				_, err = doc.Page(ctx, 0)
				_ = doc.Close()
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// TestTempFilesRemoved checks PDF and DJVU copies do not outlive Close.
func TestTempFilesRemoved(t *testing.T) {
	files := testutil.FormatFiles(t)
	tmp := t.TempDir()
	for _, n := range []string{"three.pdf", "two.djvu"} {
		data, _ := os.ReadFile(files[n])
		doc, err := Open(context.Background(), data, Options{TempDir: tmp, PDFRawImages: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := doc.Page(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		if err := doc.Close(); err != nil {
			t.Fatal(err)
		}
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "*"))
	if len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestEXIFOrientation: a JPEG, and a JPEG-compressed TIFF (which OpenCV
// decodes), come out as a viewer shows them for each of the 8 EXIF
// orientations.
func TestEXIFOrientation(t *testing.T) {
	testutil.Need(t, "exiftool", "convert")
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, testutil.TestPage(60, 40), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.jpg"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, dir, "convert", "page.jpg", "-compress", "jpeg", "page.tiff")
	// Where the stored top-left red block appears once the viewer's turn
	// is applied, and whether width and height swap.
	tests := []struct {
		o            int
		right, lower bool
		swap         bool
	}{
		{1, false, false, false}, {2, true, false, false}, {3, true, true, false}, {4, false, true, false},
		{5, false, false, true}, {6, true, false, true}, {7, true, true, true}, {8, false, true, true},
	}
	for _, ext := range []string{"jpg", "tiff"} {
		orig, err := os.ReadFile(filepath.Join(dir, "page."+ext))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/%d", ext, tc.o), func(t *testing.T) {
				p := filepath.Join(dir, fmt.Sprintf("o%d.%s", tc.o, ext))
				if err := os.WriteFile(p, orig, 0o644); err != nil {
					t.Fatal(err)
				}
				testutil.Run(t, dir, "exiftool", "-q", "-overwrite_original", fmt.Sprintf("-Orientation#=%d", tc.o), p)
				data, _ := os.ReadFile(p)
				doc, err := Open(context.Background(), data, Options{})
				if err != nil {
					t.Fatal(err)
				}
				img, err := doc.Page(context.Background(), 0)
				if err != nil {
					t.Fatal(err)
				}
				b := img.Bounds()
				if (b.Dx() == 40) != tc.swap {
					t.Fatalf("size %v, swap %v", b.Size(), tc.swap)
				}
				x, y := b.Dx()/12, b.Dy()/12
				if tc.right {
					x = b.Dx() - 1 - x
				}
				if tc.lower {
					y = b.Dy() - 1 - y
				}
				if r, g, _, _ := img.At(x, y).RGBA(); r>>8 < 150 || g>>8 > 90 {
					t.Errorf("no red block at (%d,%d)", x, y)
				}
			})
		}
	}
}
