package roles

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"image/jpeg"
	"path/filepath"
	"slices"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
	"docsuite/pkg/orient"
)

// TestWordsSettleRealDocuments classifies real photos and scans whose
// picture alone names a wrong type and checks that the printed words read
// on them name the right family: a SNILS card's and a vehicle registration
// certificate's titles, a Japanese licence's captions read with the
// Japanese model (withIdeographic), and an English invoice, whose words no
// catalogue type prints, is `other`, as is a Japanese My Number card,
// which prints some of the licence's captions (住所, 番号) but not its own.
func TestWordsSettleRealDocuments(t *testing.T) {
	skipWithoutRealdata(t)
	m := testModels(true)
	zr := openTestZoneReader(t, m)
	if zr.tess == nil {
		t.Fatal("Tesseract did not load: the printed words are not read")
	}
	if zr.jpn == nil {
		t.Fatal("Tesseract's Japanese model did not load (make deps installs tesseract-ocr-jpn)")
	}
	cl := openTestClassifier(t, m)
	for _, c := range []struct{ file, family string }{
		{"uN1ck-DataModel/DataModel__Docs Examples__snils1.jpg", "snils"},
		{"uN1ck-DataModel/DataModel__Docs Examples__9022972.jpg", "vehicle_registration_certificate"},
		{"document-scanner-jp/img__driverslicense_no_bg.png", "driver_license_japan"},
		{"mindee-client-lib-test-data/v1__products__invoices__default_sample.jpg", doctypes.Other},
		{"document-scanner-jp/img__mynumber_no_bg.png", doctypes.Other},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			img := realPage(t, c.file)
			ev, _, _, err := zr.Read(context.Background(), img)
			if err != nil {
				t.Fatal(err)
			}
			if !ev.WordsRead {
				t.Fatal("words not read")
			}
			t.Logf("words: %q", ev.Words)
			picture := ev
			picture.Words, picture.WordsRead = nil, false
			before, err := cl.ClassifyWith(context.Background(), img, nil, picture)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cl.ClassifyWith(context.Background(), img, nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			if doctypes.Family(before.Type) == c.family {
				t.Logf("the picture alone already names the %s family (%s %.2f)", c.family, before.Type, before.Confidence)
			}
			if doctypes.Family(got.Type) != c.family {
				t.Errorf("type %s (%.2f), want the %s family (picture alone: %s %.2f)", got.Type, got.Confidence, c.family, before.Type, before.Confidence)
			}
		})
	}
}

// TestWordsTurnPhotographedPageUpright reads a real photograph of a
// Russian passport's photo page whose captions are too small to read and
// whose text lines and layout point to it flipped top to bottom: the
// holder's name and patronymic read right only upright, so the words turn
// it back.
func TestWordsTurnPhotographedPageUpright(t *testing.T) {
	skipWithoutRealdata(t)
	zr := openTestZoneReader(t, testModels(true))
	if zr.tess == nil {
		t.Fatal("Tesseract did not load: the printed words are not read")
	}
	img := realPage(t, "Exemtik-passport-detector/data__original__passport_min.png")
	ev, rot, _, err := zr.Read(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	if rot != 0 {
		t.Errorf("rotation %d, want 0 (words read: %q)", rot, ev.Words)
	}
}

// TestWordsCheckReadsALineOnce reads the photographed passport page of
// TestWordsTurnPhotographedPageUpright flipped top to bottom, as its text
// lines and layout point: the orientation check reads the tallest lines
// of the three other ways and turns the page back, and the wordLines
// words it answers with are read only past the checkLines the check read
// there already (36 Tesseract readings of its 9 before, 30 now), and are those a
// reading of that way alone gives.
func TestWordsCheckReadsALineOnce(t *testing.T) {
	skipWithoutRealdata(t)
	zr := openTestZoneReader(t, testModels(true))
	if zr.tess == nil {
		t.Fatal("Tesseract did not load: the printed words are not read")
	}
	ctx := context.Background()
	img := realPage(t, "Exemtik-passport-detector/data__original__passport_min.png")
	boxes, err := orient.DetectLines(ctx, zr.eng, img)
	if err != nil {
		t.Fatal(err)
	}
	views := zr.newTurnedViews(img, boxes)
	got, rot, err := zr.uprightWords(ctx, views, geom.NewRotation(2, false), false)
	if err != nil {
		t.Fatal(err)
	}
	if rot != 0 {
		t.Fatalf("rotation %d, want 0: the check did not turn the page back (words %q)", rot, got.words)
	}
	v, err := views.at(ctx, rot)
	if err != nil {
		t.Fatal(err)
	}
	// Each way has as many lines worth reading: the first way's n, the
	// check's c at each of three, the rest of n at the way it chose.
	n := min(len(wordLineRects(v.lines)), wordLines)
	c := min(n, checkLines)
	if want := n + 3*c + n - c; got.lines != want {
		t.Errorf("Tesseract read %d lines, want %d (%d a way)", got.lines, want, n)
	}
	lines, err := readWords(ctx, zr.tess, v.up, v.lines, 0, wordLines)
	if err != nil {
		t.Fatal(err)
	}
	if want := flatten(lines); !slices.Equal(got.words, want.words) || !slices.Equal(got.conf, want.conf) {
		t.Errorf("words %q, want %q as read upright alone", got.words, want.words)
	}
}

// TestPrintedWordsOff checks PRINTED_WORDS=false: the zone reader still
// loads and reads text lines, but reads no printed words, so the picture
// and the zone decide as before the words were read.
// TestWordsOfALargeScan reads the printed words of a tax certificate
// scanned at 300 dpi (2550x3509) the way the classifier does: its lines,
// detected finer on so large a page (orient.DetectLines), come one line a
// box and read nearly word for word; detected at 640 pixels, two lines
// shared each box and 4 of 22 words read were the catalogue's.
func TestWordsOfALargeScan(t *testing.T) {
	skipWithoutRealdata(t)
	zr := openTestZoneReader(t, testModels(true))
	if zr.tess == nil {
		t.Fatal("Tesseract did not load: the printed words are not read")
	}
	tw, err := classify.LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	ev, _, _, err := zr.Read(context.Background(), realPage(t, "uN1ck-DataModel/DataModel__Docs Examples__INN2.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	known := 0
	for _, w := range ev.Words {
		if tw.Known(w) {
			known++
		}
	}
	if known < 15 {
		t.Errorf("%d of %d words read are the catalogue's, want at least 15: %q", known, len(ev.Words), ev.Words)
	}
}

func TestPrintedWordsOff(t *testing.T) {
	zr := openTestZoneReader(t, testModels(false))
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	ev, _, _, err := zr.Read(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	if zr.tess != nil || zr.jpn != nil || ev.WordsRead {
		t.Fatalf("PRINTED_WORDS=false still reads words (engines %v %v, read %v)", zr.tess != nil, zr.jpn != nil, ev.WordsRead)
	}
}

// TestIdeographicTurned reads the real Japanese licence specimen turned
// and mirrored each of the eight ways and posted again as a JPEG (as make
// eval's 8-way check posts it): its Japanese captions must name its type
// and turn it upright. Read with the Russian and English models, the
// mirrored card's gibberish holds two dictionary words (CAM, DEERE among
// 13 read), which must not keep the Japanese model from reading it.
func TestIdeographicTurned(t *testing.T) {
	skipWithoutRealdata(t)
	m := testModels(true)
	zr := openTestZoneReader(t, m)
	if zr.jpn == nil {
		t.Fatal("Tesseract's Japanese model did not load (make deps installs tesseract-ocr-jpn)")
	}
	cl := openTestClassifier(t, m)
	up := realPage(t, "document-scanner-jp/img__driverslicense_no_bg.png")
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		t.Run(r.String(), func(t *testing.T) {
			turned, err := cvimg.Turn(up, r)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := jpeg.Encode(&buf, turned, &jpeg.Options{Quality: 92}); err != nil {
				t.Fatal(err)
			}
			img, err := jpeg.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			ev, rot, _, err := zr.Read(context.Background(), img)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cl.ClassifyWith(context.Background(), img, nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			if want := r.Inverse(); rot != want || got.Type != "driver_license_japan" {
				t.Errorf("rotation %d as %s %.2f, want rotation %d as driver_license_japan (words %q)", rot, got.Type, got.Confidence, want, ev.Words)
			}
		})
	}
}
