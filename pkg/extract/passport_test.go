package extract_test

import (
	"context"
	"image"
	_ "image/jpeg" // realdata decoders
	_ "image/png"
	"os"
	"path/filepath"
	"testing"
)

// realdata is the shared folder of real photos and scans, read only by
// tests and skipped when absent.
const realdata = "../../../shared/realdata"

// Fields covered by the zone's check digits are exact whenever the zone
// verifies: a passport whose mrz_2 is answered with full confidence has
// the series and number, the dates and the subdivision code of the truth.
func TestPassportCheckedFieldsExact(t *testing.T) {
	x := newExtractor(t)
	verified := 0
	for i, s := range synthPassports(t, scans, 7, 6) {
		got, err := x.Passport(context.Background(), s.img)
		if err != nil {
			t.Fatal(err)
		}
		if got["mrz_2"].Confidence < 0.98 {
			continue
		}
		verified++
		for _, f := range []string{"mrz_2", "series_and_number", "date_of_birth", "date_of_issue", "subdivision_code"} {
			want, printed := s.fields[f]
			if !printed {
				continue // the upper page is not on this crop
			}
			if got[f].Text != want {
				t.Errorf("sample %d %s: got %q, want %q", i, f, got[f].Text, want)
			}
			if c := got[f].Confidence; c < 0.9 || c > 1 {
				t.Errorf("sample %d %s: confidence %v", i, f, c)
			}
		}
		if got["page_number"].Text != "2-3" {
			t.Errorf("sample %d page_number %q", i, got["page_number"].Text)
		}
	}
	if verified == 0 {
		t.Fatal("no zone verified on six flat scans")
	}
}

// The vendor's specimen scan of a passport main spread (300 dpi, upright,
// no machine-readable zone: an older form) gives every printed field
// exactly, read in the order the form prints them. The values are those
// printed on the specimen.
func TestPassportRealScan(t *testing.T) {
	x := newExtractor(t)
	img := decodeReal(t, "SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg")
	got, err := x.Passport(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"series_and_number": "1104 000000", "surname": "ИМЯРЕК", "first_name": "ЕВГЕНИЙ", "other_names": "АЛЕКСАНДРОВИЧ",
		"sex": "МУЖ.", "date_of_birth": "12.09.1982", "place_of_birth": "ГОР. АРХАНГЕЛЬСК", "date_of_issue": "17.12.2004",
		"subdivision_code": "292-000", "issuing_authority": "ОТДЕЛОМ ВНУТРЕННИХ ДЕЛ ОКТЯБРЬСКОГО ОКРУГА ГОРОДА АРХАНГЕЛЬСКА",
		"page_number": "2-3",
	}
	b := img.Bounds()
	for f, w := range want {
		g := got[f]
		if g.Text != w {
			t.Errorf("%s: got %q, want %q", f, g.Text, w)
		}
		box := image.Rect(g.Coords[0][0], g.Coords[0][1], g.Coords[3][0], g.Coords[3][1])
		if g.Confidence <= 0 || g.Confidence > 1 || box.Empty() || !box.In(b) {
			t.Errorf("%s: confidence %v, coords %v: want a region of the crop", f, g.Confidence, g.Coords)
		}
	}
	for _, f := range []string{"mrz_1", "mrz_2"} {
		if v, ok := got[f]; ok {
			t.Errorf("%s = %q on a form without a zone", f, v.Text)
		}
	}
}

func decodeReal(t *testing.T, name string) image.Image {
	t.Helper()
	f, err := os.Open(filepath.Join(realdata, name))
	if err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// A blank specimen of the form (real photo, no values printed, no zone)
// gets no invented values: nothing that would come from the zone, and
// no dates.
func TestPassportBlankSpecimen(t *testing.T) {
	x := newExtractor(t)
	img := decodeReal(t, "AlexBrrr-rkn-passport-ai_v2/static__images__pasport.png")
	got, err := x.Passport(context.Background(), img)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"mrz_1", "mrz_2", "series_and_number", "date_of_birth", "date_of_issue", "surname", "first_name"} {
		if v, ok := got[k]; ok {
			t.Errorf("%s = %q (%.2f) on a blank form", k, v.Text, v.Confidence)
		}
	}
}

// Other types have no field list, and a blank residence page has no
// stamp: an empty set and the type kept, never invented fields.
func TestExtractOtherTypes(t *testing.T) {
	x := newExtractor(t)
	img := image.NewRGBA(image.Rect(0, 0, 400, 300))
	for _, typ := range []string{"snils_front", "passport_registration", "other"} {
		got, err := x.Extract(context.Background(), typ, img)
		if err != nil || len(got.Fields) != 0 || got.DocType != typ {
			t.Errorf("%s: %v, %v; want no fields", typ, got, err)
		}
	}
}

// BenchmarkPassport is the extraction of one passport main spread with a
// zone (a flat scan 1,600 pixels tall) on one core: zone detection and
// reading, and Tesseract on the fields the zone does not settle.
func BenchmarkPassport(b *testing.B) {
	benchPassport(b, true)
}

// BenchmarkPassportWithoutZone is BenchmarkPassport on the older form,
// without a zone: the whole crop searched for one, then the blocks, the
// fields and both pages' numbers read with Tesseract.
func BenchmarkPassportWithoutZone(b *testing.B) {
	benchPassport(b, false)
}

// BenchmarkPassportRealScan extracts the real 300 dpi specimen of
// TestPassportRealScan (1523x2072, an older form without a zone), larger
// than the factory's forms; it skips without ../shared/realdata.
func BenchmarkPassportRealScan(b *testing.B) {
	x := newExtractor(b)
	f, err := os.Open(filepath.Join(realdata, "SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg"))
	if err != nil {
		b.Skipf("realdata not available: %v", err)
	}
	img, _, err := image.Decode(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := x.Passport(context.Background(), img); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPassport extracts the first flat scan of seed 7 with a zone, or
// without one, b.N times.
func benchPassport(b *testing.B, zoned bool) {
	x := newExtractor(b)
	var s sample
	for _, c := range synthPassports(b, scans, 7, 24) {
		if _, ok := c.fields["mrz_1"]; ok == zoned {
			s = c
			break
		}
	}
	if s.img == nil {
		b.Fatalf("no passport with zone %v among 24 of seed 7", zoned)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := x.Passport(context.Background(), s.img); err != nil {
			b.Fatal(err)
		}
	}
}
