package decode

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"testing"

	"docsuite/pkg/testutil"
)

// pdfWithImage writes a one-page PDF whose page is covered by one image
// of w x h RGB samples of 16 bits (raw, big-endian, Flate-compressed),
// placed at 300 dpi.
func pdfWithImage(t *testing.T, img *image.RGBA) []byte {
	t.Helper()
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	var raw bytes.Buffer
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := img.RGBAAt(x, y)
			for _, v := range []uint8{c.R, c.G, c.B} {
				raw.Write([]byte{v, v}) // v * 257, big-endian
			}
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	if _, err := zw.Write(raw.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	pw, ph := float64(w)*72/300, float64(h)*72/300
	content := fmt.Sprintf("q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", pw, ph)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.4f %.4f] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> >> >>", pw, ph),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 16 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", w, h, z.Len(), z.Bytes()),
	}
	return testutil.PDF("1.5", objs, "")
}

// TestPDF16BitScan: a scanned page stored with 16 bits a sample comes out
// as its own pixels reduced to 8 bits (poppler's 16-bit PNG writer, used
// before, turned every full-scale sample to 0: yellow speckle over white
// paper).
func TestPDF16BitScan(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo")
	page := testutil.TestPage(240, 320)
	// Full-scale samples: poppler 22's 16-bit PNG writer wrapped 65535 to 0.
	for y := 200; y < 260; y++ {
		for x := 0; x < 240; x++ {
			page.Pix[page.PixOffset(x, y)+2] = 255
			if y >= 230 {
				page.Pix[page.PixOffset(x, y)], page.Pix[page.PixOffset(x, y)+1] = 255, 255
			}
		}
	}
	img := firstPageWith(t, pdfWithImage(t, page), Options{PDFRawImages: true, AutoPDFRawImages: true})
	if img.Bounds().Size() != page.Bounds().Size() {
		t.Fatalf("page %v, want the stored image's %v", img.Bounds().Size(), page.Bounds().Size())
	}
	bad, worst := 0, 0
	for y := 0; y < 320; y++ {
		for x := 0; x < 240; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			w := page.RGBAAt(x, y)
			for _, d := range []int{int(r>>8) - int(w.R), int(g>>8) - int(w.G), int(b>>8) - int(w.B)} {
				worst = max(worst, abs(d))
				if abs(d) > 1 {
					bad++
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d samples off by more than 1 (worst %d)", bad, worst)
	}
}
