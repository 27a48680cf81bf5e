package editdist

import "testing"

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b  string
		limit int
		want  int
	}{
		{a: "", b: "", want: 0},
		{a: "PASPORT", b: "PASPORT", want: 0},
		{a: "ПАСПОРТ", b: "ПАСП0РТ", want: 1},
		{a: "kitten", b: "sitting", want: 3},
		{a: "", b: "ABC", want: 3},
		{a: "IVANOV<<IVAN", b: "IVANOV<IVAN", want: 1},
		{a: "kitten", b: "sitting", limit: 2, want: 2},
		{a: "A", b: "ABCDEFG", limit: 3, want: 3},
		{a: "ФАМИЛИЯ", b: "ФАМИЛИЯ", limit: 1, want: 0},
		{a: "PNRUS7LI8", b: "PNRUS7L8", want: 1},
		{a: "KSENI8<", b: "<SENI<<", want: 2},
		{a: "ABC", b: "", want: 3},
		{a: "4509 123456", b: "4509 123456", want: 0},
		{a: "01.02.1990", b: "01.02.1991", want: 1},
		{a: "01.02.1990", b: "11.12.1981", want: 4},
		{a: "ИВАНОВ", b: "ПЕТРОВ", want: 4},
	}
	for _, tc := range cases {
		got := Distance([]rune(tc.a), []rune(tc.b), tc.limit)
		if got != tc.want {
			t.Errorf("Distance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
		if tc.limit == 0 {
			if got := Strings(tc.b, tc.a); got != tc.want {
				t.Errorf("Strings(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
			}
		}
	}
}
