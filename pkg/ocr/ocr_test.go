package ocr

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"docsuite/pkg/synth"
	"docsuite/pkg/testutil"
)

// TestReadsPrintedText renders Russian and English lines with ImageMagick
// and reads them back.
func TestReadsPrintedText(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "900x300", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "36", "-fill", "black",
		"-annotate", "+40+80", "ПАСПОРТ ГРАЖДАНИНА", "-annotate", "+40+160", "HELLO WORLD 2026", "-annotate", "+40+240", "Санкт-Петербург 12.05.2019", "page.png")
	img := testutil.DecodeImage(t, filepath.Join(dir, "page.png"))
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	page, err := e.Read(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%q", page.Text)
	for _, want := range []string{"ПАСПОРТ", "ГРАЖДАНИНА", "HELLO", "WORLD", "2026", "Санкт-Петербург", "12.05.2019"} {
		if !strings.Contains(page.Text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if len(page.Lines) != 3 {
		t.Fatalf("%d lines, want 3: %+v", len(page.Lines), page.Lines)
	}
	for i, l := range page.Lines {
		top := l.Coords[0][1]
		if top < 80*i || top > 80*(i+1) || l.Coords[3][0] > 900 || l.Confidence <= 0.5 || l.Confidence > 1 {
			t.Errorf("line %d %q: coords %v confidence %v", i, l.Text, l.Coords, l.Confidence)
		}
	}
}

// TestFirstFieldReadLikeTheRest reads the same two-line region as a single
// line (ReadField's default) three times with a fresh engine: every read
// must see one line. Before the engine was initialised up front, the
// first read of each engine lost its line mode to Tesseract's Init and
// came back as a block of two lines.
func TestFirstFieldReadLikeTheRest(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "700x140", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "32", "-fill", "black",
		"-annotate", "+20+50", "ПАСПОРТ ГРАЖДАНИНА", "-annotate", "+20+115", "HELLO WORLD 2026", "field.png")
	img := testutil.DecodeImage(t, filepath.Join(dir, "field.png"))
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	var texts []string
	for i := 0; i < 3; i++ {
		text, lines, err := e.ReadField(context.Background(), img, FieldOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 1 {
			t.Errorf("read %d: %d lines %q, want the region read as one line", i+1, len(lines), text)
		}
		texts = append(texts, text)
	}
	if texts[0] != texts[1] || texts[1] != texts[2] {
		t.Errorf("the same region read differently: %q", texts)
	}
}

// TestTesseractWritesNothingToStderr reads a factory passport page as a
// page and as a field with standard error redirected to a file:
// Tesseract's messages ("Line cannot be recognized!!", "Estimating
// resolution as ...") and Leptonica's ("Error in pixScaleAreaMap: pixd
// too small"), several a page, must not break into the workers'
// structured log lines.
func TestTesseractWritesNothingToStderr(t *testing.T) {
	dir := t.TempDir()
	g, err := synth.New(synth.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := g.RenderType("passport_main", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	captured, err := os.Create(filepath.Join(dir, "stderr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer captured.Close()
	saved, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup2(int(captured.Fd()), 2); err != nil {
		t.Fatal(err)
	}
	_, rerr := e.Read(context.Background(), doc.Img)
	_, _, ferr := e.ReadField(context.Background(), doc.Img, FieldOptions{})
	if err := syscall.Dup2(saved, 2); err != nil {
		t.Fatal(err)
	}
	_ = syscall.Close(saved)
	if rerr != nil || ferr != nil {
		t.Fatal(rerr, ferr)
	}
	out, err := os.ReadFile(captured.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 0 {
		t.Errorf("Tesseract wrote to stderr: %q", out)
	}
}

// TestReadsTurnedPages reads a page of printed lines lying on its side and
// upside down: the text must come back upright (the lines as written),
// with the rotation that made it so and the first line's box where that
// line lies on the page as given, its corners in the text's own order.
func TestReadsTurnedPages(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	args := []string{"-size", "1100x700", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "30", "-fill", "black"}
	lines := []string{"ПАСПОРТ ГРАЖДАНИНА РОССИЙСКОЙ ФЕДЕРАЦИИ", "Место рождения город Екатеринбург",
		"Дата выдачи 12.05.2019 код подразделения 660-001", "Фамилия Иванова Имя Мария Отчество Петровна",
		"Passport issued by the Ministry of Internal Affairs", "Зарегистрирован по адресу улица Ленина дом 5"}
	for i, l := range lines {
		args = append(args, "-annotate", fmt.Sprintf("+40+%d", 80+i*100), l)
	}
	testutil.Run(t, dir, "convert", append(args, "page.png")...)
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	cases := []struct {
		name     string
		rotate   string // ImageMagick's clockwise rotation of the upright page
		rotation int    // the turns that make it upright again
		// where the first line's own top-left corner lies on the turned
		// 1100x700 page: a box around it
		near image.Rectangle
	}{
		{"upright", "0", 0, image.Rect(0, 0, 200, 140)},
		{"turned clockwise", "90", 3, image.Rect(560, 0, 700, 200)},
		{"upside down", "180", 2, image.Rect(900, 560, 1100, 700)},
		{"turned anticlockwise", "270", 1, image.Rect(0, 900, 140, 1100)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name := "page-" + c.rotate + ".png"
			testutil.Run(t, dir, "convert", "page.png", "-rotate", c.rotate, name)
			img := testutil.DecodeImage(t, filepath.Join(dir, name))
			page, err := e.Read(context.Background(), img)
			if err != nil {
				t.Fatal(err)
			}
			if page.Rotation != c.rotation {
				t.Errorf("rotation %d, want %d", page.Rotation, c.rotation)
			}
			for _, want := range []string{"ПАСПОРТ", "Екатеринбург", "12.05.2019", "Петровна", "Ленина"} {
				if !strings.Contains(page.Text, want) {
					t.Errorf("text lacks %q: %q", want, page.Text)
				}
			}
			b := img.Bounds()
			if page.Width != b.Dx() || page.Height != b.Dy() {
				t.Errorf("page %dx%d, image %v", page.Width, page.Height, b)
			}
			if len(page.Lines) == 0 {
				t.Fatal("no lines")
			}
			tl := page.Lines[0].Coords[0]
			if !image.Pt(tl[0], tl[1]).In(c.near) {
				t.Errorf("first line %q: top-left corner %v, want within %v", page.Lines[0].Text, tl, c.near)
			}
		})
	}
}

// TestReadsUpsideDownEnglish reads a page of English prose upside down
// and on its side. Read upside down with the Russian model, Latin print
// comes back as Cyrillic words read with confidence, enough of them for
// the reading to pass as legible: the page must still be turned upright.
func TestReadsUpsideDownEnglish(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	lines := []string{
		"Some right been should never he to under first.",
		"The report was made after many years of work on the state.",
		"People who came here before us had little time and most of it.",
		"Each man and woman will see the world in their own way now.",
		"There is no good reason to go against what they said last year.",
		"Three old friends made a long way down through the great city.",
		"We know only what could be used since the day it was written.",
		"Those who did not come may still get in through another door.",
		"Between life and work both should be taken with some care.",
		"His first letter said that the new house would be well made.",
		"They have come over from the same place and take it all back.",
		"Our little state still has many men who would right the world.",
	}
	args := []string{"-size", "1700x1000", "xc:white", "-font", "DejaVu-Serif", "-pointsize", "30", "-fill", "black"}
	for i, l := range lines {
		args = append(args, "-annotate", fmt.Sprintf("+110+%d", 100+i*70), l)
	}
	testutil.Run(t, dir, "convert", append(args, "page.png")...)
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	cases := []struct {
		rotate   string // ImageMagick's clockwise rotation of the upright page
		rotation int    // the turns that make it upright again
	}{
		{"0", 0}, {"180", 2}, {"270", 1},
	}
	for _, c := range cases {
		t.Run("turned "+c.rotate, func(t *testing.T) {
			name := "page-" + c.rotate + ".png"
			testutil.Run(t, dir, "convert", "page.png", "-rotate", c.rotate, name)
			page, err := e.Read(context.Background(), testutil.DecodeImage(t, filepath.Join(dir, name)))
			if err != nil {
				t.Fatal(err)
			}
			if page.Rotation != c.rotation {
				t.Errorf("rotation %d, want %d", page.Rotation, c.rotation)
			}
			for _, want := range []string{"report", "friends", "letter", "world"} {
				if !strings.Contains(page.Text, want) {
					t.Errorf("text lacks %q: %.200q", want, page.Text)
				}
			}
		})
	}
}
