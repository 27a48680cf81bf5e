package mrz

import "testing"

// Misread fillers on a name line: specks inside a run of fillers and a
// tail of C and K where the fillers run to the end.
func TestNameLineCleanup(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"PNRUSIVANOV<<IVAN<<<<C<<<<", "PNRUSIVANOV<<IVAN<<<<<<<<<"},
		{"PNRUSVASIL9EVA<CEKATERINA<IGOREVNACCCC<C<KCC", "PNRUSVASIL9EVA<CEKATERINA<IGOREVNA<<<<<<<<<<"},
		{"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"},
		{"P<UTOMARC<<ISAAC<<<<<<<<<<<<<<<<<<<<<<<<<<<", "P<UTOMARC<<ISAAC<<<<<<<<<<<<<<<<<<<<<<<<<<<"},
		{"P<UTOKOCK<<JACK", "P<UTOKOCK<<JACK"},
		{"PNRUSVASIL9EVA<<KSENI8<VLADIMIROVNA<<<<<<CC<", "PNRUSVASIL9EVA<<KSENI8<VLADIMIROVNA<<<<<<<<<"},
		{"PNRUSIVANOV<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<S", "PNRUSIVANOV<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<<"},
		{"PNRUSIVANOV<<IVAN<<<PETROVI3<<<<<<<<<<<<<<<<", "PNRUSIVANOV<<IVAN<<<PETROVI3<<<<<<<<<<<<<<<<"},
		{"PNRUSIVANOV<<IVAN<<<PE<<<<<<<<<<<<<<<<<<<<<<", "PNRUSIVANOV<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<<"},
	} {
		got, _ := clearStrays(tc.in)
		got, _ = clearTail(got)
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}
