package decode

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// testPage draws a w×h page: white paper, a dark frame and a red block in
// the top-left corner, so orientation and size can be checked after
// decoding.
func testPage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{245, 245, 240, 255}
			switch {
			case x < w/6 && y < h/6:
				c = color.RGBA{220, 20, 20, 255}
			case x == w/2 || y == h/2:
				c = color.RGBA{30, 30, 30, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// writePNG saves img as PNG in dir and returns the path.
func writePNG(t *testing.T, dir, name string, img image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs a fixture-making command in dir.
func run(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// fixtures makes one file of every format (and the multi-page and
// special variants) from the same test page.
func fixtures(t *testing.T) (string, map[string]string) {
	t.Helper()
	need(t, "convert", "heif-enc", "img2pdf", "c44", "djvm", "tesseract")
	dir := t.TempDir()
	writePNG(t, dir, "page.png", testPage(240, 320))
	writePNG(t, dir, "page2.png", testPage(320, 240))
	run(t, dir, "convert", "page.png", "-quality", "92", "page.jpg")
	run(t, dir, "convert", "page2.png", "-quality", "92", "page2.jpg")
	run(t, dir, "convert", "page.png", "page.gif")
	run(t, dir, "convert", "page.png", "page2.png", "-compress", "lzw", "page.tiff")
	run(t, dir, "convert", "page.png", "bmp3:page.bmp")
	run(t, dir, "convert", "page.png", "-colors", "64", "-compress", "RLE", "bmp3:page_rle.bmp")
	run(t, dir, "heif-enc", "-q", "80", "page.png", "-o", "page.heic")
	run(t, dir, "img2pdf", "page.jpg", "-o", "page.pdf")
	run(t, dir, "img2pdf", "page.jpg", "page2.jpg", "page.jpg", "-o", "three.pdf")
	run(t, dir, "convert", "-size", "240x320", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "30", "-fill", "black", "-annotate", "+30+200", "HELLO",
		"-annotate", "+30+260", "WORLD", "-units", "PixelsPerInch", "-density", "70", "text.png")
	run(t, dir, "tesseract", "text.png", "text", "-l", "eng", "pdf")
	run(t, dir, "c44", "-dpi", "100", "page.jpg", "p1.djvu")
	run(t, dir, "c44", "-dpi", "100", "page2.jpg", "p2.djvu")
	run(t, dir, "djvm", "-c", "two.djvu", "p1.djvu", "p2.djvu")
	heif, err := os.ReadFile(filepath.Join(dir, "page.heic"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.heif"), genericHEIF(heif), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, n := range []string{"page.jpg", "page.png", "page.gif", "page.tiff", "page.bmp", "page_rle.bmp", "page.heic",
		"page.heif", "page.pdf", "three.pdf", "text.pdf", "p1.djvu", "two.djvu"} {
		files[n] = filepath.Join(dir, n)
	}
	return dir, files
}

// genericHEIF rebrands an HEIC file as plain HEIF (major brand mif1, no
// heic compatible brand), as some cameras write it.
func genericHEIF(data []byte) []byte {
	out := bytes.Clone(data)
	size := int(out[0])<<24 | int(out[1])<<16 | int(out[2])<<8 | int(out[3])
	for off := 8; off+4 <= size && off+4 <= len(out); off += 4 {
		if off == 12 {
			continue // minor version
		}
		if string(out[off:off+4]) == "heic" {
			copy(out[off:], "mif1")
		}
	}
	return out
}

func TestEveryFormat(t *testing.T) {
	_, files := fixtures(t)
	tests := []struct {
		file   string
		opts   Options
		format Format
		pages  int
		w, h   int  // size of page 1
		plain  bool // the page has no red block (tesseract reads no text beside one)
	}{
		{file: "page.jpg", format: JPEG, pages: 1, w: 240, h: 320},
		{file: "page.png", format: PNG, pages: 1, w: 240, h: 320},
		{file: "page.gif", format: GIF, pages: 1, w: 240, h: 320},
		{file: "page.tiff", format: TIFF, pages: 1, w: 240, h: 320},
		{file: "page.bmp", format: BMP, pages: 1, w: 240, h: 320},
		{file: "page_rle.bmp", format: BMP, pages: 1, w: 240, h: 320},
		{file: "page.heic", format: HEIC, pages: 1, w: 240, h: 320},
		{file: "page.heif", format: HEIF, pages: 1, w: 240, h: 320},
		// The scanned page's own image, untouched.
		{file: "page.pdf", opts: Options{PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 1, w: 240, h: 320},
		// img2pdf places it at 96 dpi: rasterised at 192 dpi it doubles.
		{file: "page.pdf", opts: Options{DPI: 192}, format: PDF, pages: 1, w: 480, h: 640},
		{file: "three.pdf", opts: Options{PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 3, w: 240, h: 320},
		// A text layer makes the page rasterised (tesseract's PDF is 70 dpi).
		{file: "text.pdf", opts: Options{DPI: 140, PDFRawImages: true, AutoPDFRawImages: true}, format: PDF, pages: 1, w: 480, h: 640, plain: true},
		{file: "text.pdf", opts: Options{DPI: 140, PDFRawImages: true}, format: PDF, pages: 1, w: 240, h: 320, plain: true},
		{file: "p1.djvu", opts: Options{DPI: 100}, format: DJVU, pages: 1, w: 240, h: 320},
		{file: "two.djvu", opts: Options{DPI: 50}, format: DJVU, pages: 2, w: 120, h: 160},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(files[tc.file])
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Open(ctx, data, tc.opts)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer doc.Close()
			if doc.Format() != tc.format || doc.Pages() != tc.pages {
				t.Fatalf("format %s pages %d, want %s %d", doc.Format(), doc.Pages(), tc.format, tc.pages)
			}
			for i := 0; i < doc.Pages(); i++ {
				img, err := doc.Page(ctx, i)
				if err != nil {
					t.Fatalf("page %d: %v", i+1, err)
				}
				sz := img.Bounds().Size()
				if i == 0 && (abs(sz.X-tc.w) > 1 || abs(sz.Y-tc.h) > 1) {
					t.Errorf("page 1 is %v, want %dx%d", sz, tc.w, tc.h)
				}
				if i == 0 && !tc.plain && !redTopLeft(img) {
					t.Errorf("page 1: the red block is not in the top-left corner")
				}
			}
		})
	}
}

// redTopLeft checks the test page's red block is where it was drawn.
func redTopLeft(img image.Image) bool {
	b := img.Bounds()
	r, g, _, _ := img.At(b.Min.X+b.Dx()/12, b.Min.Y+b.Dy()/12).RGBA()
	return r>>8 > 150 && g>>8 < 90
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
