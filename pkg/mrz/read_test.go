package mrz_test

import (
	"context"
	"errors"
	"image"
	_ "image/jpeg" // realdata decoders
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/mrz"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/testutil"
)

// realdata is the shared folder of real photos and scans, read only by
// tests and skipped when absent.
const realdata = "../../../shared/realdata"

// newReader loads the PP-OCRv4 models; the test is skipped when they are
// not installed (make deps installs them).
func newReader(t testing.TB) *mrz.Reader {
	t.Helper()
	return mrz.NewReader(testutil.PPOCR(t))
}

func decodeFile(t testing.TB, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// Real images of machine-readable zones. lines, where given, are the
// zone's true text (ICAO specimens); otherwise the zone must be found with
// every check digit valid.
func TestReadRealImages(t *testing.T) {
	r := newReader(t)
	for _, tc := range []struct {
		file  string
		lines []string
	}{
		{"PassportEye/passporteye__mrz__testdata__100_pass-uto.jpg", []string{
			"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"}},
		{"PassportEye/passporteye__mrz__testdata__100_pass2-uto.jpg", []string{
			"I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6"}},
		{"fastmrz/data__td3.jpg", []string{
			"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"}},
		{"PassportEye/passporteye__mrz__testdata__100_id-che.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__100_id-mac.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__100_id-rou.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__100_pass-bdr.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__100_pass-cze.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__100_pass-cze2.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__100_pass-isl.png", nil},
		{"PassportEye/passporteye__mrz__testdata__100_visa-polx.jpg", nil},
		{"PassportEye/passporteye__mrz__testdata__79_pass-hun.png", nil},
		{"mindee-client-lib-test-data/v1__products__passport__default_sample.jpg", nil},
		{"mindee-client-lib-test-data/v1__products__generated__international_id.jpg", nil},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			img := decodeFile(t, filepath.Join(realdata, tc.file))
			// The plain reader, the extraction's (its lines read at their
			// own width first, see WithSecondReading) and the classifier's,
			// which wants no names (WithoutNames): its name line must still
			// give the document code and the issuer.
			for name, r := range map[string]*mrz.Reader{"plain": r, "second": r.WithSecondReading(),
				"without names": r.WithSecondReading().WithoutNames()} {
				rd, err := r.Read(context.Background(), img)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if !rd.Valid() {
					t.Errorf("%s: check digits fail in %v: %q", name, rd.Failed(), rd.Lines)
				}
				got, want := rd.Lines, tc.lines
				if name == "without names" && len(want) == 2 && len(got) == 2 && len(got[0]) >= 5 {
					// TD3 and TD2: the names follow the code and issuer on line 1.
					got, want = []string{got[0][:5], got[1]}, []string{want[0][:5], want[1]}
				}
				if want != nil && strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s: read\n%s\nwant\n%s", name, strings.Join(rd.Lines, "\n"), strings.Join(tc.lines, "\n"))
				}
				if len(rd.Rects) != len(rd.Lines) || rd.Confidence <= 0.5 || rd.Confidence > 1 {
					t.Errorf("%s: rects %v, confidence %v", name, rd.Rects, rd.Confidence)
				}
			}
		})
	}
}

// Pages without a zone give ErrNotFound rather than a made-up reading.
func TestReadNoZone(t *testing.T) {
	r := newReader(t)
	for _, file := range []string{
		"PassportEye/tests__data__tesseract-test1.jpg",
		"AlexBrrr-rkn-passport-ai_v2/static__images__pasport.png", // a blank specimen: no zone printed
	} {
		img := decodeFile(t, filepath.Join(realdata, file))
		if rd, err := r.Read(context.Background(), img); !errors.Is(err, mrz.ErrNotFound) {
			t.Errorf("%s: got %v, %v; want ErrNotFound", file, rd, err)
		}
	}
}

// The lower page of a real 300 dpi scan of a passport without a zone: its
// printed rows are wide enough to be zone lines, and the extraction's
// reader tells that none reads like one (ErrNoZoneLines), so that the
// extraction does not search the page again at a finer scale.
func TestReadNoZoneLines(t *testing.T) {
	r := newReader(t).WithSecondReading()
	img := decodeFile(t, filepath.Join(realdata, "SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg"))
	b := img.Bounds()
	band := cvimg.Sub(img, image.Rect(b.Min.X, b.Max.Y-b.Dy()*45/100, b.Max.X, b.Max.Y))
	for _, opt := range []ppocr.DetectOptions{{MaxSide: 640, Upscale: true}, mrz.DetectOptions()} {
		if rd, err := r.ReadWith(context.Background(), band, opt); !errors.Is(err, mrz.ErrNoZoneLines) {
			t.Errorf("detected at %d: got %v, %v; want ErrNoZoneLines", opt.MaxSide, rd, err)
		}
	}
}

// A photo held a few degrees off level: the zone's slanted lines are
// levelled and read exactly.
func TestReadSlanted(t *testing.T) {
	testutil.Need(t, "convert")
	r := newReader(t)
	src, err := filepath.Abs(filepath.Join(realdata, "PassportEye/passporteye__mrz__testdata__100_pass-uto.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	want := []string{"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"}
	second := r.WithSecondReading()
	for _, deg := range []string{"4", "-6"} {
		dir := t.TempDir()
		testutil.Run(t, dir, "convert", src, "-background", "white", "-rotate", deg, "slanted.png")
		img := decodeFile(t, filepath.Join(dir, "slanted.png"))
		rd, err := r.Read(context.Background(), img)
		if err != nil {
			t.Fatalf("%s degrees: %v", deg, err)
		}
		if !rd.Valid() || strings.Join(rd.Lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s degrees: read %q (failed %v)", deg, rd.Lines, rd.Failed())
		}
		if rd2, err := second.Read(context.Background(), img); err != nil || strings.Join(rd2.Lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s degrees, second reading: %v, %v", deg, rd2, err)
		}
		if !rd.Rects[1].In(img.Bounds()) || rd.Rects[1].Min.Y <= rd.Rects[0].Min.Y {
			t.Errorf("%s degrees: rects %v", deg, rd.Rects)
		}
	}
}
