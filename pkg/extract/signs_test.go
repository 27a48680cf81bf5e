package extract_test

import (
	"context"
	"image"
	"testing"
)

// A page sent as passport_main that shows no sign of a main spread (no
// Russian zone, fewer than two fields of the spread's formats) gets no
// sure field: nothing when it shows none, every field below 0.4 when it
// shows one (a date, a patronymic), and page_number "2-3" at 0.99 only on
// a main spread. Before, every such page answered page_number at 0.99 and
// the name fields with the other document's words at 0.6 to 0.9
// (surname ПЕНСИОННОГО СТРАХОВАНИЯ on a SNILS, ФЕДЕРАЦИЯ on a driving
// licence); main spreads, with a zone or without, keep theirs.
func TestPassportNeedsSignsOfTheForm(t *testing.T) {
	x := newExtractor(t)
	synth := func(typ string, c condition) func(*testing.T) image.Image {
		return func(t *testing.T) image.Image { return synthCrops(t, c, 5, 1, typ)[0].img }
	}
	synthPassport := func(zoned bool) func(*testing.T) image.Image {
		return func(t *testing.T) image.Image {
			for _, s := range synthPassports(t, scans, 7, 6) {
				if _, ok := s.fields["mrz_1"]; ok == zoned {
					return s.img
				}
			}
			t.Fatalf("no passport with zone %v among 6 of seed 7", zoned)
			return nil
		}
	}
	real := func(name string) func(*testing.T) image.Image {
		return func(t *testing.T) image.Image { return decodeReal(t, name) }
	}
	blank := func(*testing.T) image.Image {
		img := image.NewGray(image.Rect(0, 0, 900, 1260))
		for i := range img.Pix {
			img.Pix[i] = uint8(225 + i*7%23)
		}
		return img
	}
	for _, tc := range []struct {
		name string
		img  func(*testing.T) image.Image
		// spread: the page is a main spread, answering page_number at
		// 0.99; otherwise no field may be answered at 0.4 or more.
		spread bool
	}{
		{"blank page", blank, false},
		{"factory SNILS", synth("snils_front", photos), false},
		{"factory driving licence front", synth("driver_license_2011_front", photos), false},
		{"factory military ID", synth("military_id", photos), false},
		{"factory bank card", synth("bank_card", photos), false},
		{"factory INN", synth("inn_person", photos), false},
		{"photo of a bird", real("darknet/data__eagle.jpg"), false},
		{"SNILS", real("uN1ck-DataModel/DataModel__Docs Examples__snils1.jpg"), false},
		{"driving licence scan", real("OfficialEye/docs__assets__templates__driver_license_ru_01__driver_license_ru.jpg"), false},
		{"British passport", real("mindee-client-lib-test-data/v1__products__passport__default_sample.jpg"), false},
		{"factory scan with a zone", synthPassport(true), true},
		{"factory scan without a zone", synthPassport(false), true},
		{"specimen scan without a zone", real("SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg"), true},
		{"photo page of a web image", real("Exemtik-passport-detector/data__original__passport_min.png"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := x.Passport(context.Background(), tc.img(t))
			if err != nil {
				t.Fatal(err)
			}
			if tc.spread {
				if p := got["page_number"]; p.Text != "2-3" || p.Confidence != 0.99 {
					t.Errorf("page_number %q (%.2f) on a main spread, want 2-3 at 0.99", p.Text, p.Confidence)
				}
				if f, ok := got["surname"]; !ok || f.Confidence < 0.4 {
					t.Errorf("surname %q (%.2f) on a main spread, want it answered sure", f.Text, f.Confidence)
				}
				return
			}
			for k, f := range got {
				if f.Confidence >= 0.4 {
					t.Errorf("%s = %q (%.2f) on a page that is no main spread", k, f.Text, f.Confidence)
				}
			}
		})
	}
}
