package decode

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/testutil"
)

// faxPage is one page of a TIFF fixture: the same picture at a given
// resolution, so that its pixels are that resolution's shape.
type faxPage struct {
	x, y  float64  // resolution
	unit  string   // ImageMagick's -units: PixelsPerInch unless said
	write []string // ImageMagick's options for the file (compression, type)
	after []string // tiffcp's options, when the file is rewritten by libtiff
	tags  []string // tiffset's tag and value pairs set afterwards
}

// faxBilevel is how fax machines and fax servers store a page: one bit a
// pixel, CCITT Group 4.
var faxBilevel = []string{"-threshold", "50%", "-type", "bilevel", "-compress", "Group4"}

// file writes the page into dir as name: the test picture at 2.4 × 3.2
// inches, stored at the page's resolution.
func (p faxPage) file(t *testing.T, dir, name string) string {
	t.Helper()
	perInch := map[string]float64{"": 1, "PixelsPerInch": 1, "PixelsPerCentimeter": 2.54, "Undefined": 100}[p.unit]
	w, h := int(2.4*p.x*perInch+0.5), int(3.2*p.y*perInch+0.5)
	unit := p.unit
	if unit == "" {
		unit = "PixelsPerInch"
	}
	testutil.WritePNG(t, dir, name+".png", scanPicture(w, h))
	args := append([]string{name + ".png"}, p.write...)
	args = append(args, "-units", unit, "-density", fmt.Sprintf("%gx%g", p.x, p.y), name)
	testutil.Run(t, dir, "convert", args...)
	if p.after != nil {
		testutil.Run(t, dir, "tiffcp", append(p.after, name, "re-"+name)...)
		if err := os.Rename(filepath.Join(dir, "re-"+name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i+1 < len(p.tags); i += 2 {
		testutil.Run(t, dir, "tiffset", "-s", p.tags[i], p.tags[i+1], name)
	}
	return filepath.Join(dir, name)
}

// bytes is the page written as a one-page TIFF file.
func (p faxPage) bytes(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(p.file(t, t.TempDir(), "fax.tif"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// tiffViewerPage is the one-page TIFF at path as a viewer shows it, w
// pixels wide: libtiff decodes it (tiffcp; tiff2pdf carries a JPEG-compressed
// TIFF's data over as a blank page), tiff2pdf makes the page's size from the
// file's resolutions, as fax viewers show it, and pdftoppm renders it.
func tiffViewerPage(t *testing.T, path string, w int) image.Image {
	t.Helper()
	dir, name := filepath.Split(path)
	testutil.Run(t, dir, "tiffcp", "-c", "none", name, "plain-"+name)
	testutil.Run(t, dir, "tiff2pdf", "-o", name+".pdf", "plain-"+name)
	data, err := os.ReadFile(path + ".pdf")
	if err != nil {
		t.Fatal(err)
	}
	return viewerPage(t, data, w)
}

// TestTIFFFaxAsAViewerShowsIt: a TIFF page whose pixels are not square (a
// fax at 204 × 98 or 204 × 196 dpi) comes out as a viewer shows it, its
// lower-resolution side enlarged, page by page; one whose pixels are
// square, or within 2% of it, comes out as stored. Before, every page came
// out as stored: a standard fax squashed to half its height.
func TestTIFFFaxAsAViewerShowsIt(t *testing.T) {
	testutil.Need(t, "convert", "tiffcp", "tiffset", "tiff2pdf", "pdfinfo", "pdftoppm")
	standard := faxPage{x: 204, y: 98, write: faxBilevel}
	fine := faxPage{x: 204, y: 196, write: faxBilevel}
	g3 := standard
	g3.after = []string{"-c", "g3:2d", "-f", "lsb2msb"}
	turned := standard
	turned.tags = []string{"274", "6"} // Orientation: the page lies on its side
	noUnit := faxPage{x: 2, y: 1, unit: "Undefined", write: faxBilevel}
	tests := []struct {
		name   string
		pages  []faxPage
		stored bool // a viewer shows the page as stored
	}{
		{name: "standard fax, 204 x 98 dpi, Group 4", pages: []faxPage{standard}},
		{name: "fine fax, 204 x 196 dpi", pages: []faxPage{fine}},
		{name: "standard fax, Group 3 2-D, FillOrder 2 (libtiff)", pages: []faxPage{g3}},
		{name: "standard fax lying on its side (Orientation 6)", pages: []faxPage{turned}},
		{name: "a fax of pages fine, standard, fine", pages: []faxPage{fine, standard, fine}},
		{name: "width the lower resolution, 98 x 204 dpi", pages: []faxPage{{x: 98, y: 204, write: faxBilevel}}},
		{name: "resolution in centimetres", pages: []faxPage{{x: 80.3, y: 38.6, unit: "PixelsPerCentimeter", write: faxBilevel}}},
		{name: "no unit, pixels twice as wide as tall", pages: []faxPage{noUnit}},
		{name: "JPEG-compressed colour scan, 100 x 200 dpi (read by OpenCV)", pages: []faxPage{{x: 100, y: 200, write: []string{"-compress", "jpeg", "-quality", "95"}}}},
		{name: "square pixels, 200 dpi", pages: []faxPage{{x: 200, y: 200, write: faxBilevel}}, stored: true},
		{name: "pixels within 2% of square, 300 x 297 dpi", pages: []faxPage{{x: 300, y: 297}}, stored: true},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var files, names []string
			for i, p := range tc.pages {
				names = append(names, fmt.Sprintf("p%d.tif", i))
				files = append(files, p.file(t, dir, names[i]))
			}
			path := files[0]
			if len(files) > 1 {
				path = filepath.Join(dir, "fax.tif")
				testutil.Run(t, dir, "tiffcp", append(names, "fax.tif")...)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Open(ctx, data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			if doc.Pages() != len(files) {
				t.Fatalf("%d pages, want %d", doc.Pages(), len(files))
			}
			for i, p := range tc.pages {
				img, err := doc.Page(ctx, i)
				if err != nil {
					t.Fatalf("page %d: %v", i+1, err)
				}
				got := img.Bounds().Size()
				if tc.stored {
					if want := testutil.DecodeImage(t, files[i]).Bounds().Size(); got != want {
						t.Fatalf("page %d is %v, want it as stored, %v", i+1, got, want)
					}
					continue
				}
				turn := exifRotation[exifOrientationOf(p)]
				upright := got
				if turn%2 == 1 {
					upright = image.Pt(got.Y, got.X)
				}
				truth := tiffViewerPage(t, pageWithoutOrientation(t, p, dir, i), upright.X)
				if turn != 0 {
					if truth, err = cvimg.Turn(truth, turn); err != nil {
						t.Fatal(err)
					}
				}
				want := truth.Bounds().Size()
				if d := got.Y - want.Y; d < -1 || d > 1 || abs(got.X-want.X) > 1 {
					t.Fatalf("page %d is %v, a viewer shows %v", i+1, got, want)
				}
				if worst := worstBlock(img, truth, 8); worst > 48 {
					t.Errorf("page %d: an 8x8 block is %d grey levels off what a viewer shows", i+1, worst)
				}
			}
		})
	}
}

// exifOrientationOf is the Orientation tag the page sets, 0 when none.
func exifOrientationOf(p faxPage) int {
	for i := 0; i+1 < len(p.tags); i += 2 {
		if p.tags[i] == "274" {
			var o int
			fmt.Sscan(p.tags[i+1], &o)
			return o
		}
	}
	return 0
}

// pageWithoutOrientation is page i written again without its Orientation
// tag: the page as stored, which tiff2pdf lays out without turning it.
func pageWithoutOrientation(t *testing.T, p faxPage, dir string, i int) string {
	t.Helper()
	var tags []string
	for k := 0; k+1 < len(p.tags); k += 2 {
		if p.tags[k] != "274" {
			tags = append(tags, p.tags[k], p.tags[k+1])
		}
	}
	p.tags = tags
	return p.file(t, dir, fmt.Sprintf("upright%d.tif", i))
}
