package decode

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"docsuite/pkg/testutil"
)

// scanPicture is what the fixtures scan: white paper, a black block at the
// top left, a red one at the top right and a grey band at the bottom, so
// that a negative, a flip, a turn, a crop or colours read wrong all show.
func scanPicture(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{255, 255, 255, 255}
			switch {
			case x >= w/12 && x < w/2 && y >= h/12 && y < h/4:
				c = color.RGBA{0, 0, 0, 255}
			case x >= 2*w/3 && x < 11*w/12 && y >= h/12 && y < h/6:
				c = color.RGBA{200, 0, 0, 255}
			case y >= 7*h/8:
				c = color.RGBA{128, 128, 128, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// scanPDF is a one-page PDF around one image (object 5); by default the
// image covers the page at 300 pixels an inch.
type scanPDF struct {
	broken  bool     // the cross-reference table's offsets wrong, as poppler and qpdf rebuild them
	w, h    int      // the image's pixels
	dict    string   // the image dictionary past its type and size
	data    []byte   // the image's stream
	content string   // the page's content stream, when not the default
	page    string   // entries added to the page dictionary
	objs    []string // objects 6, 7, ...
	pw, ph  float64  // the page's size in points, when not the image's
}

func (s scanPDF) bytes() []byte {
	iw, ih := float64(s.w)*72/300, float64(s.h)*72/300
	pw, ph := s.pw, s.ph
	if pw == 0 {
		pw, ph = iw, ih
	}
	content := s.content
	if content == "" {
		content = fmt.Sprintf("q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", iw, ih)
	}
	objs := append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.4f %.4f] /Contents 4 0 R /Resources << /XObject << /Im0 5 0 R >> "+
			"/ExtGState << /Half << /ca 0.5 /CA 0.5 >> /Plain << /LW 1 >> >> >> %s >>", pw, ph, s.page),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d %s /Length %d >>\nstream\n%s\nendstream",
			s.w, s.h, s.dict, len(s.data), s.data),
	}, s.objs...)
	data := testutil.PDF("1.5", objs, "")
	if s.broken {
		data = bytes.Replace(data, []byte("0000000009 00000 n"), []byte("0000000019 00000 n"), 1)
	}
	return data
}

// Encoders of the fixtures' image streams.

func jpegOf(t *testing.T, img image.Image) []byte {
	return encoded(t, func(b *bytes.Buffer) error { return jpeg.Encode(b, img, &jpeg.Options{Quality: 95}) })
}

func greyOf(img *image.RGBA) *image.Gray {
	g := image.NewGray(img.Rect)
	for i := range g.Pix {
		g.Set(i%img.Rect.Dx(), i/img.Rect.Dx(), img.At(i%img.Rect.Dx(), i/img.Rect.Dx()))
	}
	return g
}

func rgbOf(img *image.RGBA) []byte {
	var raw []byte
	for i := 0; i < len(img.Pix); i += 4 {
		raw = append(raw, img.Pix[i:i+3]...)
	}
	return raw
}

// bitsOf packs the image's grey as 1 bit a pixel, 1 white, rows whole bytes.
func bitsOf(g *image.Gray) []byte {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	stride := (w + 7) / 8
	raw := make([]byte, stride*h)
	for y := range h {
		for x := range w {
			if g.GrayAt(x, y).Y >= 128 {
				raw[y*stride+x/8] |= 0x80 >> (x % 8)
			}
		}
	}
	return raw
}

func flateOf(t *testing.T, raw []byte) []byte {
	return encoded(t, func(b *bytes.Buffer) error {
		z := zlib.NewWriter(b)
		if _, err := z.Write(raw); err != nil {
			return err
		}
		return z.Close()
	})
}

// cmykJPEGOf is the image as ImageMagick writes a CMYK JPEG: Adobe's
// inverted samples, as Photoshop writes them.
func cmykJPEGOf(t *testing.T, img image.Image) []byte {
	dir := t.TempDir()
	testutil.WritePNG(t, dir, "page.png", img)
	testutil.Run(t, dir, "convert", "page.png", "-colorspace", "CMYK", "-quality", "95", "cmyk.jpg")
	data, err := os.ReadFile(filepath.Join(dir, "cmyk.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// scanCase is a scanned page and whether it shows its image as stored.
type scanCase struct {
	name    string
	pdf     scanPDF
	stored  bool
	margins bool // the image lies on the page with margins: it is the page less them
}

// scanCases are the scanned pages a viewer shows as their image is stored,
// and those it shows otherwise (a negative, flipped, turned, cut, covered),
// where the embedded image taken as stored was the wrong picture.
func scanCases(t *testing.T) []scanCase {
	const w, h = 240, 320
	pic := scanPicture(w, h)
	grey, rgb := jpegOf(t, greyOf(pic)), jpegOf(t, pic)
	cmyk := cmykJPEGOf(t, pic)
	pw, ph := float64(w)*72/300, float64(h)*72/300
	jpegRGB := "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode"
	rgbScan := func(p scanPDF) scanPDF { p.w, p.h, p.dict, p.data = w, h, jpegRGB, rgb; return p }
	sq := scanPicture(300, 320) // a quarter turn keeps its page within 85-115% either way
	fax := greyOf(scanPicture(400, 200))
	palette := "<FFFFFF 000000 C80000 808080>"
	var indexed []byte
	for i := 0; i < len(pic.Pix); i += 4 {
		indexed = append(indexed, map[uint8]byte{255: 0, 0: 1, 200: 2, 128: 3}[pic.Pix[i]])
	}
	return []scanCase{
		{name: "grey JPEG", stored: true, pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode", data: grey}},
		{name: "RGB JPEG", stored: true, pdf: rgbScan(scanPDF{})},
		{name: "CMYK JPEG, Decode inverted as img2pdf writes Adobe's", stored: true,
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceCMYK /BitsPerComponent 8 /Filter /DCTDecode /Decode [1 0 1 0 1 0 1 0]", data: cmyk}},
		{name: "grey Flate, Decode [1 0]", stored: true,
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Decode [1 0]", data: flateOf(t, greyOf(pic).Pix)}},
		{name: "1-bit Flate, Decode [1 0]", stored: true,
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode /Decode [1 0]", data: flateOf(t, bitsOf(greyOf(pic)))}},
		{name: "palette", stored: true,
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace [/Indexed /DeviceRGB 3 " + palette + "] /BitsPerComponent 8 /Filter /FlateDecode", data: flateOf(t, indexed)}},
		{name: "page-sized clip, plain graphics state", stored: true,
			pdf: rgbScan(scanPDF{content: fmt.Sprintf("q /Plain gs 0 0 %.4f %.4f re W n %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", pw, ph, pw, ph)})},
		{name: "margins round the image", stored: true, margins: true,
			pdf: rgbScan(scanPDF{pw: pw + 4, ph: ph + 6, content: fmt.Sprintf("q %.4f 0 0 %.4f 2 3 cm /Im0 Do Q", pw, ph)})},
		{name: "cross-reference table broken", stored: true, pdf: rgbScan(scanPDF{broken: true})},
		{name: "hidden annotation", stored: true,
			pdf: rgbScan(scanPDF{page: "/Annots [6 0 R]", objs: []string{"<< /Type /Annot /Subtype /Square /F 2 /Rect [5 5 40 25] /IC [1 0 0] >>"}})},

		// The known defect: pdfimages -j writes the JPEG as stored, a negative.
		{name: "grey JPEG, Decode [1 0]",
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Decode [1 0]", data: grey}},
		{name: "RGB JPEG, Decode [1 0 1 0 1 0]",
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Decode [1 0 1 0 1 0]", data: rgb}},
		{name: "CMYK JPEG, no Decode",
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceCMYK /BitsPerComponent 8 /Filter /DCTDecode", data: cmyk}},
		{name: "grey JPEG as a separation (ink, not light)",
			pdf: scanPDF{w: w, h: h, data: grey, dict: "/ColorSpace [/Separation /Black /DeviceCMYK << /FunctionType 2 /Domain [0 1] " +
				"/C0 [0 0 0 0] /C1 [0 0 0 1] /N 1 >>] /BitsPerComponent 8 /Filter /DCTDecode"}},
		{name: "RGB JPEG, ColorTransform 0",
			pdf: scanPDF{w: w, h: h, dict: jpegRGB + " /DecodeParms << /ColorTransform 0 >>", data: rgb}},
		{name: "colour-key mask on black",
			pdf: scanPDF{w: w, h: h, dict: "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Mask [0 20 0 20 0 20]", data: flateOf(t, rgbOf(pic))}},
		{name: "flipped left to right", pdf: rgbScan(scanPDF{content: fmt.Sprintf("q -%.4f 0 0 %.4f %.4f 0 cm /Im0 Do Q", pw, ph, pw)})},
		{name: "upside down", pdf: rgbScan(scanPDF{content: fmt.Sprintf("q -%.4f 0 0 -%.4f %.4f %.4f cm /Im0 Do Q", pw, ph, pw, ph)})},
		{name: "a quarter turn by its transform",
			pdf: scanPDF{w: 300, h: 320, dict: jpegRGB, data: jpegOf(t, sq), pw: 76.8, ph: 72, content: "q 0 -72 76.8 0 0 72 cm /Im0 Do Q"}},
		{name: "cut by the crop box", pdf: rgbScan(scanPDF{page: fmt.Sprintf("/CropBox [0 0 %.4f %.4f]", pw, ph*0.88)})},
		{name: "clipped to its top half",
			pdf: rgbScan(scanPDF{content: fmt.Sprintf("q 0 %.4f %.4f %.4f re W n %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", ph/2, pw, ph/2, pw, ph)})},
		{name: "clipped to a triangle",
			pdf: rgbScan(scanPDF{content: fmt.Sprintf("q 0 0 m %.4f 0 l 0 %.4f l h W n %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", pw, ph, pw, ph)})},
		{name: "larger than the page, its middle shown",
			pdf: rgbScan(scanPDF{content: fmt.Sprintf("q %.4f 0 0 %.4f %.4f %.4f cm /Im0 Do Q", pw*1.1, ph*1.1, -pw*0.05, -ph*0.05)})},
		{name: "a white box painted over it",
			pdf: rgbScan(scanPDF{content: fmt.Sprintf("q %.4f 0 0 %.4f 0 0 cm /Im0 Do Q 1 g 0 %.4f %.4f %.4f re f", pw, ph, ph*3/4, pw, ph/4)})},
		{name: "an annotation over it",
			pdf: rgbScan(scanPDF{page: "/Annots [6 0 R]", objs: []string{"<< /Type /Annot /Subtype /Square /Rect [5 40 40 70] /IC [0 0 1] /C [0 0 1] >>"}})},
		{name: "half transparent", pdf: rgbScan(scanPDF{content: fmt.Sprintf("q /Half gs %.4f 0 0 %.4f 0 0 cm /Im0 Do Q", pw, ph)})},
		{name: "a fax of 200 x 100 dpi",
			pdf: scanPDF{w: 400, h: 200, dict: "/ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode", data: flateOf(t, bitsOf(fax)),
				pw: 144, ph: 144, content: "q 144 0 0 144 0 0 cm /Im0 Do Q"}},
	}
}

// TestPDFScanAsAViewerShowsIt: a scanned page comes out as pdftoppm
// renders it (what a viewer shows) at the page's resolution; before, a
// page whose image poppler shows otherwise than as stored came out as
// stored: a negative, flipped, uncut, with what lies over it missing.
func TestPDFScanAsAViewerShowsIt(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo", "pdftoppm", "qpdf", "convert")
	for _, tc := range scanCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.pdf.bytes()
			img := firstPageWith(t, data, Options{PDFRawImages: true, AutoPDFRawImages: true, TempDir: t.TempDir()})
			if tc.margins {
				if img.Bounds().Dx() != tc.pdf.w || img.Bounds().Dy() != tc.pdf.h {
					t.Fatalf("page %v, want the image's %dx%d", img.Bounds().Size(), tc.pdf.w, tc.pdf.h)
				}
				return
			}
			truth := viewerPage(t, data, img.Bounds().Dx())
			if d := img.Bounds().Dy() - truth.Bounds().Dy(); d < -1 || d > 1 || img.Bounds().Dx() != truth.Bounds().Dx() {
				t.Fatalf("page %v, a viewer shows %v", img.Bounds().Size(), truth.Bounds().Size())
			}
			if worst := worstBlock(img, truth, 8); worst > 48 {
				t.Errorf("an 8x8 block of the page is %d grey levels off what a viewer shows", worst)
			}
		})
	}
}

// TestPDFScanTakenAsStored: a page that shows its image as stored still
// gives that image (no rendering, its own pixels); the others are
// rendered.
func TestPDFScanTakenAsStored(t *testing.T) {
	testutil.Need(t, "pdfimages", "pdfinfo", "qpdf", "convert")
	ctx := context.Background()
	for _, tc := range scanCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(ctx, tc.pdf.bytes(), Options{PDFRawImages: true, AutoPDFRawImages: true, TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			d := doc.(*pdfDoc)
			im, ok := d.scannedImage(ctx, 0)
			if !ok {
				t.Fatal("not a scanned page")
			}
			if _, stored := d.shownAsStored(ctx, 0, im); stored != tc.stored {
				t.Errorf("shown as stored: %v, want %v", stored, tc.stored)
			}
		})
	}
}

// viewerPage is the PDF's first page as pdftoppm renders its crop box
// at the resolution that makes it w pixels wide.
func viewerPage(t *testing.T, data []byte, w int) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfinfo", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var pw float64
	for _, l := range bytes.Split(out, []byte("\n")) {
		if f := bytes.Fields(l); len(f) >= 5 && string(f[0]) == "Page" && string(f[1]) == "size:" {
			pw, _ = strconv.ParseFloat(string(f[2]), 64)
		}
	}
	dpi := strconv.FormatFloat(float64(w)*72/pw, 'f', 4, 64)
	out, err = exec.Command("pdftoppm", "-cropbox", "-r", dpi, "-singlefile", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	img, err := readPNM(bufio.NewReader(bytes.NewReader(out)), Options{MaxPixels: 1 << 30}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// worstBlock is the largest difference of mean grey between a's and b's
// n x n blocks over their common part: edges a pixel apart and JPEG's
// ringing fade, a picture not the same does not.
func worstBlock(a, b image.Image, n int) int {
	w, h := min(a.Bounds().Dx(), b.Bounds().Dx()), min(a.Bounds().Dy(), b.Bounds().Dy())
	worst := 0
	for by := 0; by+n <= h; by += n {
		for bx := 0; bx+n <= w; bx += n {
			sa, sb := 0, 0
			for y := by; y < by+n; y++ {
				for x := bx; x < bx+n; x++ {
					sa += int(color.GrayModel.Convert(a.At(a.Bounds().Min.X+x, a.Bounds().Min.Y+y)).(color.Gray).Y)
					sb += int(color.GrayModel.Convert(b.At(b.Bounds().Min.X+x, b.Bounds().Min.Y+y)).(color.Gray).Y)
				}
			}
			worst = max(worst, abs(sa-sb)/(n*n))
		}
	}
	return worst
}
