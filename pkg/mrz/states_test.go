package mrz

import "testing"

func TestKnownState(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"RUS", true}, {"IND", true}, {"PAK", true}, {"KGZ", true}, {"UTO", true},
		{"D", true}, {"GBN", true}, {"UNA", true}, {"XXA", true},
		{"DKU", false}, {"IN", false}, {"", false}, {"rus", false}, {"R0S", false},
	} {
		if got := KnownState(tc.code); got != tc.want {
			t.Errorf("KnownState(%q) = %t, want %t", tc.code, got, tc.want)
		}
	}
}
