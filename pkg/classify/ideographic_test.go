package classify

import (
	"reflect"
	"testing"
)

// TestIdeographicWords finds the known words in ideographs and kana in
// lines as Tesseract's Japanese model reads them (spaces between the
// characters, captions beside values), and Score weighs them for the
// Japanese licence only: two-ideograph captions count, one ideograph and
// words in other scripts do not.
func TestIdeographicWords(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	if len(tw.ideo) == 0 {
		t.Fatal("no word in ideographs in typewords.json")
	}
	for _, c := range []struct {
		name, line string
		want       []string
	}{
		{"caption and address value", "住所 | 東京都千代田区霞が関の2ー 1一2の", []string{"東京都千代田区霞が関", "住所"}},
		{"characters spaced", "公 安 委 員 会", []string{"公安委員会"}},
		{"caption after a rule", "交付| 令和01年05月07日 12345", []string{"交付", "令和"}},
		{"one ideograph", "日", nil},
		{"Cyrillic", "ПАСПОРТ РОССИЙСКОЙ ФЕДЕРАЦИИ", nil},
		{"unknown Japanese", "個人 番 号 カ ー ド", []string{"番号"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := tw.IdeographicWords(c.line)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("IdeographicWords(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
	s := tw.Score([]string{"交付", "公安委員会", "日", "本"})
	if s.Read != 2 {
		t.Errorf("read %d, want the two words of two or more ideographs", s.Read)
	}
	for typ, v := range s.Matched {
		if typ != "driver_license_japan" {
			t.Errorf("the licence's captions count for %s (%.2f)", typ, v)
		}
	}
	if s.Matched["driver_license_japan"] <= 0 {
		t.Error("the licence's captions do not count for driver_license_japan")
	}
}
