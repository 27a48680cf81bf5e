package testutil

import (
	"bytes"
	"image"
	"image/color"
	_ "image/jpeg" // DecodeImage reads JPEG fixtures too
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPage draws a w×h page: grainy off-white paper, a dark cross through the
// middle and a red block in the top-left corner, so that size and
// orientation can be checked after decoding.
func TestPage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			// Paper with a faint deterministic grain, so that even the
			// losslessly compressed formats weigh more than 1 KB.
			g := uint8((x*7919 + y*104729 + x*y*31) % 13)
			c := color.RGBA{240 + g/3, 240 + g/3, 234 + g/3, 255}
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

// WritePNG saves img as PNG in dir and returns the path.
func WritePNG(t testing.TB, dir, name string, img image.Image) string {
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

// DecodeImage decodes the image file at path (PNG or JPEG), failing the
// test when it cannot.
func DecodeImage(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// Run runs a fixture-making command in dir, failing the test on error.
func Run(t testing.TB, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// Need skips the test when a command-line tool is missing.
func Need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/install-deps.sh installs it)", tool)
		}
	}
}

// FormatFiles makes one file of every accepted format from the same test
// pages with the tools users' files come from (ImageMagick, libheif,
// img2pdf, Tesseract, djvulibre) and returns their paths by name:
//
//	page.jpg page.png page.gif page.bmp page.heic   240×320 test page
//	page.tiff                                        two pages, the first read
//	page_rle.bmp                                     RLE-compressed palette BMP
//	odd_rle.bmp odd_q.png                            the page 242 wide in 64 colours: RLE BMP, the same pixels as PNG
//	page.heif                                        HEIF branded mif1 only
//	page.pdf three.pdf                               img2pdf scans (96 dpi), 1 and 3 pages
//	text.pdf                                         a page with a text layer (70 dpi), no red block
//	p1.djvu two.djvu                                 100 dpi DJVU, 1 and 2 pages
func FormatFiles(t testing.TB) map[string]string {
	t.Helper()
	Need(t, "convert", "heif-enc", "img2pdf", "c44", "djvm", "tesseract")
	dir := t.TempDir()
	WritePNG(t, dir, "page.png", TestPage(240, 320))
	WritePNG(t, dir, "page2.png", TestPage(320, 240))
	Run(t, dir, "convert", "page.png", "-quality", "92", "page.jpg")
	Run(t, dir, "convert", "page2.png", "-quality", "92", "page2.jpg")
	Run(t, dir, "convert", "page.png", "page.gif")
	Run(t, dir, "convert", "page.png", "page2.png", "-compress", "lzw", "page.tiff")
	// Scanners write JPEG-compressed TIFF; print workflows CMYK TIFF.
	Run(t, dir, "convert", "page.png", "-compress", "jpeg", "-quality", "92", "page_jpeg.tiff")
	Run(t, dir, "convert", "page.png", "-colorspace", "CMYK", "page_cmyk.tiff")
	Run(t, dir, "convert", "page.png", "bmp3:page.bmp")
	Run(t, dir, "convert", "page.png", "-colors", "64", "-compress", "RLE", "bmp3:page_rle.bmp")
	// A width not a multiple of four: ImageMagick runs each row on past
	// its end, which a decoder must drop (OpenCV carries it over).
	Run(t, dir, "convert", "page.png", "-resize", "242x322!", "-colors", "64", "odd_q.png")
	Run(t, dir, "convert", "odd_q.png", "-compress", "RLE", "bmp3:odd_rle.bmp")
	Run(t, dir, "heif-enc", "-q", "80", "page.png", "-o", "page.heic")
	Run(t, dir, "img2pdf", "page.jpg", "-o", "page.pdf")
	Run(t, dir, "img2pdf", "page.jpg", "page2.jpg", "page.jpg", "-o", "three.pdf")
	// A scan stored a quarter turn off, its page turned back by /Rotate 90
	// (what scanner apps write): a viewer shows page.jpg.
	Run(t, dir, "convert", "page.jpg", "-rotate", "-90", "-quality", "92", "page_ccw.jpg")
	Run(t, dir, "img2pdf", "--rotation=90", "page_ccw.jpg", "-o", "page_rot.pdf")
	// Tesseract reads no text on a page with a big red block: this one is plain.
	Run(t, dir, "convert", "-size", "240x320", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "30", "-fill", "black",
		"-annotate", "+30+200", "HELLO", "-annotate", "+30+260", "WORLD", "-units", "PixelsPerInch", "-density", "70", "text.png")
	Run(t, dir, "tesseract", "text.png", "text", "-l", "eng", "pdf")
	Run(t, dir, "c44", "-dpi", "100", "page.jpg", "p1.djvu")
	Run(t, dir, "c44", "-dpi", "100", "page2.jpg", "p2.djvu")
	Run(t, dir, "djvm", "-c", "two.djvu", "p1.djvu", "p2.djvu")
	heic, err := os.ReadFile(filepath.Join(dir, "page.heic"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.heif"), genericHEIF(heic), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, n := range []string{"page.jpg", "page.png", "page.gif", "page.tiff", "page_jpeg.tiff", "page_cmyk.tiff", "page.bmp", "page_rle.bmp", "odd_rle.bmp", "odd_q.png", "page.heic",
		"page.heif", "page.pdf", "page_rot.pdf", "three.pdf", "text.pdf", "p1.djvu", "two.djvu"} {
		files[n] = filepath.Join(dir, n)
	}
	return files
}

// genericHEIF rebrands an HEIC file as plain HEIF (no heic brand), as some
// cameras write it.
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
