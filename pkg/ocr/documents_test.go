package ocr

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/crop"
	"docsuite/pkg/testutil"
)

// TestReadDocumentsReadsACardAtASlant photographs (with ImageMagick) a
// card lying on its side at a slant on a grey page, with a note written
// beside it, and reads the page as the full-text method does once the
// cropper has cut the card out: the card's text upright, its boxes back
// on the page inside the card, the card's upright corners, and the note.
func TestReadDocumentsReadsACardAtASlant(t *testing.T) {
	dir := t.TempDir()
	testutil.CardPhoto(t, dir, "page.png", "#b8b4ae")
	q := testutil.CardPhotoQuad
	page := testutil.DecodeImage(t, filepath.Join(dir, "page.png"))
	cut, err := crop.Warp(page, q)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	// The orienter's answer, when given, is tried first: unknown, right,
	// and wrong (the reading then finds the turn itself).
	for _, hint := range []struct {
		name  string
		turns int
	}{{"no hint", 0}, {"right hint", 3}, {"wrong hint", 1}} {
		t.Run(hint.name, func(t *testing.T) {
			got, err := e.ReadDocuments(context.Background(), page, []Cut{{Quad: q, Img: cut, Turns: hint.turns}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkCardPage(t, got)
		})
	}
}

// checkCardPage checks the reading of TestReadDocumentsReadsACardAtASlant's
// page.
func checkCardPage(t *testing.T, got Page) {
	t.Helper()
	for _, want := range []string{"ПАСПОРТ", "Екатеринбург", "12.05.2019", "Петровна", "Копия"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("text lacks %q: %q", want, got.Text)
		}
	}
	if i, j := strings.Index(got.Text, "Екатеринбург"), strings.Index(got.Text, "Копия"); i > j {
		t.Errorf("the note comes before the card's text: %q", got.Text)
	}
	if len(got.Documents) != 1 {
		t.Fatalf("%d documents, want 1", len(got.Documents))
	}
	d := got.Documents[0]
	if d.Rotation != 3 {
		t.Errorf("card turned %d, want 3 (it lies turned a quarter clockwise)", d.Rotation)
	}
	// Upright, the card's top-left corner is the TR corner of the card as
	// it lies.
	if c := d.Coords[0]; c != [2]int{1150, 340} {
		t.Errorf("upright top-left corner %v, want [1150 340]", c)
	}
	ring := testutil.CardPhotoQuad.Ring()
	for _, l := range got.Lines {
		switch {
		case strings.Contains(l.Text, "Екатеринбург"):
			if l.Document != 1 {
				t.Errorf("line %q on document %d, want 1", l.Text, l.Document)
			}
			for _, c := range l.Coords {
				if !inside(ring, float64(c[0]), float64(c[1])) {
					t.Errorf("line %q corner %v off the card on the page", l.Text, c)
				}
			}
			// The text runs down the page: its upright top-left corner
			// lies right of and above its bottom-left.
			if tl, bl := l.Coords[0], l.Coords[2]; tl[0] <= bl[0] {
				t.Errorf("line %q corners not in the upright text's order: %v", l.Text, l.Coords)
			}
		case strings.Contains(l.Text, "Копия"):
			if l.Document != 0 {
				t.Errorf("note %q on document %d, want 0 (the page)", l.Text, l.Document)
			}
			if c := l.Coords[0]; c[0] < 40 || c[0] > 160 || c[1] < 60 || c[1] > 140 {
				t.Errorf("note's top-left corner %v, written at [80 ~95]", c)
			}
		}
	}
}

// TestInked tells a page worth reading from an empty margin: a scan's
// faint grain is no ink, a short line of print is.
func TestInked(t *testing.T) {
	page := func(strokes int) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, 1800, 1400))
		rng := rand.New(rand.NewPCG(7, 7))
		for i := 0; i < len(img.Pix); i += 4 {
			v := uint8(215 + rng.IntN(31) - 15)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = v, v-3, v-8, 255
		}
		// Strokes of a line of print: 3 x 30 pixels each, 20 pixels apart.
		for s := 0; s < strokes; s++ {
			for y := 100; y < 130; y++ {
				for x := 80 + 20*s; x < 83+20*s; x++ {
					img.SetRGBA(x, y, color.RGBA{30, 30, 30, 255})
				}
			}
		}
		return img
	}
	cases := []struct {
		name    string
		strokes int
		want    bool
	}{
		{"grain only", 0, false},
		{"a few specks", 4, false},
		{"a line of print", 60, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := inked(page(c.strokes)); got != c.want {
				t.Errorf("inked = %v, want %v", got, c.want)
			}
		})
	}
}

// TestLegibleLine keeps the rest of a page's lines of text and drops its
// background's scraps (the words and confidences as read on a real photo
// of a driving licence on a patterned table).
func TestLegibleLine(t *testing.T) {
	line := func(words ...any) Line {
		var l Line
		for i := 0; i < len(words); i += 2 {
			l.Words = append(l.Words, Word{Text: words[i].(string), Confidence: words[i+1].(float64)})
		}
		return l
	}
	cases := []struct {
		name string
		l    Line
		want bool
	}{
		{"a note", line("Копия", 0.97, "верна", 0.97, "подпись", 0.95), true},
		{"a stamp's words, one misread", line("ОТДЕЛ", 0.9, "УФМС", 0.8, "РОССИИ", 0.7, "пo", 0.3), true},
		{"a table's pattern with one word passing", line("Pal", 0.345, "PRL", 0.254, "Gp", 0.066, "Fue", 0.283,
			"D;", 0.0, "нь", 0.26, "me", 0.532, "ff", 0.301, "tag", 0.6, "Fae", 0.384, "thee", 0.333, "Bing", 0.298), false},
		{"scraps only", line("=", 0.96, ">", 0.84, "о", 0.84), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := legibleLine(c.l); got != c.want {
				t.Errorf("legibleLine = %v, want %v", got, c.want)
			}
		})
	}
}
