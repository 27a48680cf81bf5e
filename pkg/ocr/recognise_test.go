package ocr

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/otiai10/gosseract/v2"

	"docsuite/pkg/testutil"
)

// TestRecogniseReadsAsGosseract reads a real scan and a rendered page with
// recognise and with gosseract's own reading on the same engine, in the
// page segmentation modes the full text uses: every word, confidence, box
// and number must be the same (recognise only adds the way to stop).
func TestRecogniseReadsAsGosseract(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "900x300", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "36", "-fill", "black",
		"-annotate", "+40+80", "ПАСПОРТ ГРАЖДАНИНА", "-annotate", "+40+160", "HELLO WORLD 2026", "-annotate", "+40+240", "Санкт-Петербург 12.05.2019", "page.png")
	imgs := map[string]string{"rendered": filepath.Join(dir, "page.png"),
		"real scan": filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata", "PassportEye", "tests__data__tesseract-test1.jpg")}
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	w, err := e.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { e.idle <- w }()
	for name, path := range imgs {
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s skipped: %v", name, err) // no shared real data beside the checkout
			continue
		}
		img := testutil.DecodeImage(t, path)
		for _, psm := range []gosseract.PageSegMode{gosseract.PSM_SINGLE_BLOCK, gosseract.PSM_SPARSE_TEXT} {
			data := pnm(img)
			if err := w.c.SetPageSegMode(psm); err != nil {
				t.Fatal(err)
			}
			if err := w.c.SetImageFromBytes(data); err != nil {
				t.Fatal(err)
			}
			want, err := w.c.GetBoundingBoxesVerbose()
			if err != nil {
				t.Fatal(err)
			}
			got, err := recognise(context.Background(), w.c, data, psm)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) < 5 || !reflect.DeepEqual(got, want) {
				t.Errorf("%s, mode %d: recognise read %d words, gosseract %d:\n%+v\n%+v", name, psm, len(got), len(want), got, want)
			}
		}
	}
}

// TestReadingStopsWithItsRequest reads pages Tesseract spends long on
// (A4 at 300 dpi under heavy grain with faint print; 6615 x 9000 of print)
// with a request that ends after a second, and expects the reading to
// answer the request's end within a few seconds. Tesseract cannot be
// interrupted through gosseract: the readings ran to their end, the
// grainy page's for minutes, long after a request's timeout.
func TestReadingStopsWithItsRequest(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	var text []string
	words := strings.Fields("паспорт гражданин российской федерации выдан отделом внутренних дел района дата рождения место жительства")
	for i := range 50 {
		var l []string
		for j := range 7 {
			l = append(l, words[(i*7+j*3)%len(words)])
		}
		text = append(text, strings.Join(l, " "))
	}
	lines := strings.Join(text, "\n")
	testutil.Run(t, dir, "convert", "-size", "2480x3508", "xc:gray(78%)", "-font", "DejaVu-Sans", "-pointsize", "34", "-fill", "gray(55%)",
		"-interline-spacing", "20", "-annotate", "+150+200", lines, "-attenuate", "4", "+noise", "Gaussian", "-colorspace", "Gray", "grainy.png")
	testutil.Run(t, dir, "convert", "-size", "6615x9000", "xc:gray(95%)", "-font", "DejaVu-Sans", "-pointsize", "80", "-fill", "black",
		"-interline-spacing", "40", "-annotate", "+400+500", lines, "big.png")
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	const (
		after  = time.Second
		within = 30 * time.Second // the stop, and the layout analysis Tesseract does not stop in (13 s on the grainy page here)
	)
	for _, name := range []string{"grainy.png", "big.png"} {
		img := testutil.DecodeImage(t, filepath.Join(dir, name))
		ctx, cancel := context.WithTimeout(context.Background(), after)
		start := time.Now()
		p, err := e.Read(ctx, img)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || took > after+within {
			t.Errorf("%s: answered %v after %v (%d lines), want the deadline's error within %v", name, err, took.Round(time.Millisecond), len(p.Lines), after+within)
		} else {
			t.Logf("%s: %v after %v", name, err, took.Round(time.Millisecond))
		}
	}
}

// TestLargePageReadShrunk reads pages at sizes about readMaxSide: one
// larger is read shrunk to it, its boxes on its own pixels; one smaller is
// read as it is.
func TestLargePageReadShrunk(t *testing.T) {
	testutil.Need(t, "convert")
	dir := t.TempDir()
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	for _, tc := range []struct {
		w, h, point int
	}{
		{6615, 9000, 80}, // 8.5 pt print at 760 dpi
		{4900, 3500, 40},
		{3000, 4200, 40}, // at the limit: as it is
	} {
		name := fmt.Sprintf("%dx%d.png", tc.w, tc.h)
		x, y := tc.w/10, tc.h/3
		testutil.Run(t, dir, "convert", "-size", fmt.Sprintf("%dx%d", tc.w, tc.h), "xc:white", "-font", "DejaVu-Sans", "-pointsize", fmt.Sprint(tc.point),
			"-fill", "black", "-annotate", fmt.Sprintf("+%d+%d", x, y), "ПАСПОРТ ГРАЖДАНИНА РОССИЙСКОЙ ФЕДЕРАЦИИ", name)
		img := testutil.DecodeImage(t, filepath.Join(dir, name))
		small, f, err := shrink(img, readMaxSide)
		if err != nil {
			t.Fatal(err)
		}
		if sb := small.Bounds(); max(sb.Dx(), sb.Dy()) > readMaxSide || (max(tc.w, tc.h) <= readMaxSide) != (f == 1) {
			t.Errorf("%s: shrunk to %v by %v", name, sb, f)
		}
		p, err := e.Read(context.Background(), img)
		if err != nil {
			t.Fatal(err)
		}
		if p.Width != tc.w || p.Height != tc.h || !strings.Contains(p.Text, "ГРАЖДАНИНА") || len(p.Lines) != 1 {
			t.Fatalf("%s: %dx%d %q", name, p.Width, p.Height, p.Text)
		}
		// The line's box lies where it was drawn (the baseline at y, the
		// text from x), in the page's own pixels.
		c := p.Lines[0].Coords
		if c[0][0] < x-tc.point || c[0][0] > x+tc.point || c[3][1] < y-tc.point || c[3][1] > y+tc.point || c[0][1] > y {
			t.Errorf("%s: line at %v, drawn from (%d, %d)", name, c, x, y)
		}
	}
}
