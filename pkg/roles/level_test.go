package roles

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strings"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/ppocr"
)

// TestCropSlant checks when a crop is levelled before its text is read:
// three long lines or more slanted by 2 to 20 degrees (their median), not
// lines already level, steeper than a slant, too few, or short boxes.
func TestCropSlant(t *testing.T) {
	line := func(deg, elong float64) ppocr.Box {
		return ppocr.Box{Rect: image.Rect(0, 0, 100, 10), Angle: deg * math.Pi / 180, Elongation: elong}
	}
	long := func(deg float64, w int) ppocr.Box {
		return ppocr.Box{Rect: image.Rect(0, 0, w, 20), Angle: deg * math.Pi / 180, Elongation: float64(w) / 10}
	}
	for _, tc := range []struct {
		name  string
		boxes []ppocr.Box
		ok    bool
		deg   float64
	}{
		{"a card held 8 degrees off level", []ppocr.Box{line(7, 10), line(8, 12), line(9, 9), line(40, 2)}, true, 8},
		{"falling the other way", []ppocr.Box{line(-5, 10), line(-6, 12), line(-4, 15)}, true, -5},
		{"level already", []ppocr.Box{line(1, 10), line(0.5, 12), line(-1, 9)}, false, 0},
		{"steeper than a slant", []ppocr.Box{line(30, 10), line(31, 12), line(29, 9)}, false, 0},
		// A spread whose upper page is printed across its data page: the
		// lines running down count for nothing, the data page's are level.
		{"lines running down beside level ones", []ppocr.Box{line(-88, 10), line(-89, 12), line(87, 9), line(89, 9), line(1, 10), line(0.5, 12), line(1.5, 9)}, false, 0},
		// A Pakistani passport's page: short caption lines read 2 to 3
		// degrees, the two long lines of its zone -1.5: the zone is right.
		{"short lines' rough slants against long lines", []ppocr.Box{long(3.2, 170), long(3.4, 164), long(2.0, 153), long(3.3, 155), long(2.7, 124), long(-1.3, 629), long(-1.6, 738)}, false, 0},
		{"two lines only", []ppocr.Box{line(8, 10), line(8, 12)}, false, 0},
		{"short boxes are no lines", []ppocr.Box{line(8, 3), line(8, 4), line(8, 5)}, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, ok := cropSlant(tc.boxes)
			if ok != tc.ok || (ok && math.Abs(a*180/math.Pi-tc.deg) > 1e-9) {
				t.Errorf("slant %.2f degrees, %v; want %.2f, %v", a*180/math.Pi, ok, tc.deg, tc.ok)
			}
		})
	}
}

// TestLevelled checks cvimg.Level's turn's direction: a dark bar falling to the
// right by 6 degrees (the detector's positive slant) lies level after.
func TestLevelled(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	a := 6 * math.Pi / 180
	for x := 50; x < 350; x++ {
		y0 := 150 + int(math.Round(float64(x-200)*math.Tan(a)))
		for y := y0 - 3; y <= y0+3; y++ {
			img.Set(x, y, color.Black)
		}
	}
	spread := func(m image.Image, x int) (lo, hi int) {
		lo, hi = -1, -1
		for y := 0; y < 300; y++ {
			if r, _, _, _ := m.At(x, y).RGBA(); r < 0x8000 {
				if lo < 0 {
					lo = y
				}
				hi = y
			}
		}
		return lo, hi
	}
	lev := cvimg.Level(img, a)
	l1, _ := spread(lev, 90)
	l2, _ := spread(lev, 310)
	if l1 < 0 || l2 < 0 || abs(l1-l2) > 2 {
		t.Errorf("bar at rows %d and %d at either end after levelling, want level", l1, l2)
	}
}

// TestLevelledCardIsRead reads a real photograph of a German identity
// card held about ten degrees off level in two hands, nothing cut from it
// (the whole picture is the crop): levelled, its title is read
// (BUNDESREPUBLIK DEUTSCHLAND, no catalogue type's words) and the crop is
// read upright; as it lay, the lines were read flipped top to bottom as
// gibberish and the picture named a driving licence.
func TestLevelledCardIsRead(t *testing.T) {
	skipWithoutRealdata(t)
	zr := openTestZoneReader(t, testModels(true))
	ev, rot, _, err := zr.Read(context.Background(), realPage(t, "OfficialEye/demo__input_images__hand.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	words := classify.SplitWords(strings.Join(ev.Words, " "))
	if rot != 0 || !slices.Contains(words, "DEUTSCHLAND") {
		t.Errorf("read at rotation %d: %q; want rotation 0 and DEUTSCHLAND", rot, ev.Words)
	}
}
