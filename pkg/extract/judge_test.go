package extract

import "testing"

// The signs' levels and what judge answers at each, without the models:
// a zone or two fields of the spread's formats keep the fields as read,
// one such field or a patronymic caps every field at weakCap, nothing
// answers nothing.
func TestJudge(t *testing.T) {
	read := func(names ...string) Fields {
		out := Fields{"page_number": {Text: "2-3", Confidence: 0.99}}
		for _, n := range names {
			out[n] = Field{Text: "X", Confidence: 0.87}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		out     Fields
		zone    bool
		level   int
		answers int     // fields answered
		top     float64 // their highest confidence
	}{
		{"nothing read", read(), false, noSign, 0, 0},
		{"names only", read("surname", "first_name"), false, noSign, 0, 0},
		{"a patronymic", Fields{"other_names": {Text: "ПЕТРОВИЧ", Confidence: 0.8}}, false, weakSign, 1, weakCap},
		{"one date", read("date_of_birth", "surname"), false, weakSign, 3, weakCap},
		{"number and date", read("series_and_number", "date_of_birth", "surname"), false, sureSign, 4, 0.99},
		{"a zone", read("mrz_1"), true, sureSign, 2, 0.99},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sg := signs{zone: tc.zone, formatted: countFormatted(tc.out), patronymic: patronymic(tc.out["other_names"].Text)}
			if got := sg.level(); got != tc.level {
				t.Errorf("level %d, want %d", got, tc.level)
			}
			got := judge(tc.out, tc.zone)
			top := 0.0
			for _, f := range got {
				top = max(top, f.Confidence)
			}
			if len(got) != tc.answers || top != tc.top {
				t.Errorf("%d fields up to %.2f, want %d up to %.2f", len(got), top, tc.answers, tc.top)
			}
		})
	}
}

func TestPatronymic(t *testing.T) {
	for s, want := range map[string]bool{
		"АЛЕКСАНДРОВИЧ": true, "ПЕТРОВНА": true, "ИЛЬИЧ": true, "НИКИТИЧНА": true, "АЛИ ОГЛЫ": true,
		"": false, "ИВАНОВ": false, "ПЕНСИОННОГО": false, "ФЕДЕРАЦИЯ": false, "ИЧ": false,
	} {
		if got := patronymic(s); got != want {
			t.Errorf("patronymic(%q) = %v, want %v", s, got, want)
		}
	}
}
