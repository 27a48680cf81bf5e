package synth

import (
	"strings"
	"testing"
)

func TestMRZCheckDigit(t *testing.T) {
	tests := []struct {
		in   string
		want byte
	}{
		{"L898902C3", '6'}, {"740812", '2'}, {"120415", '9'}, {"ZE184226B<<<<<", '1'},
		{"D23145890", '7'}, {"<<<<<<", '0'},
	}
	for _, tc := range tests {
		if got := MRZCheck(tc.in); got != tc.want {
			t.Errorf("MRZCheck(%q) = %c, want %c", tc.in, got, tc.want)
		}
	}
}

// The ICAO 9303 specimens (Anna Maria Eriksson of Utopia).
func TestMRZSpecimens(t *testing.T) {
	in := MRZInput{DocCode: "P<", Issuer: "UTO", Surname: "ERIKSSON", Given: "ANNA<MARIA", Number: "L898902C3",
		Nationality: "UTO", Birth: "740812", Sex: 'F', Expiry: "120415", Optional: "ZE184226B"}
	td3 := TD3(in)
	tests := []struct{ name, got, want string }{
		{"td3 line 1", td3[0], "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"},
		{"td3 line 2", td3[1], "L898902C36UTO7408122F1204159ZE184226B<<<<<10"},
	}
	in.DocCode, in.Number, in.Optional = "I<", "D23145890", ""
	td2 := TD2(in)
	tests = append(tests,
		struct{ name, got, want string }{"td2 line 1", td2[0], "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<"},
		struct{ name, got, want string }{"td2 line 2", td2[1], "D231458907UTO7408122F1204159<<<<<<<6"})
	td1 := TD1(in)
	tests = append(tests,
		struct{ name, got, want string }{"td1 line 1", td1[0], "I<UTOD231458907<<<<<<<<<<<<<<<"},
		struct{ name, got, want string }{"td1 line 2", td1[1], "7408122F1204159UTO<<<<<<<<<<<6"},
		struct{ name, got, want string }{"td1 line 3", td1[2], "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"})
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, tc.got, tc.want)
		}
	}
	if !ValidTD3(td3[1]) || !ValidTD2(td2[1]) || !ValidTD1(td1[0], td1[1]) {
		t.Error("validators reject the ICAO specimens")
	}
}

func TestRusInternalMRZ(t *testing.T) {
	l, err := RusInternal("Имярек", "Евгений", "Александрович", "1104", "000000", "820912", 'M', "041217", "292-000")
	if err != nil {
		t.Fatal(err)
	}
	if want := "PNRUSIM8REK<<EVGENIQ<ALEKSANDROVI3"; !strings.HasPrefix(l[0], want) || len(l[0]) != 44 {
		t.Errorf("line 1 = %q, want prefix %q and 44 characters", l[0], want)
	}
	if !strings.HasPrefix(l[1], "110000000") || l[1][10:13] != "RUS" || l[1][28:42] != "4041217292000<" {
		t.Errorf("line 2 layout wrong: %q", l[1])
	}
	if !ValidTD3(l[1]) {
		t.Errorf("line 2 check digits invalid: %q", l[1])
	}
	if _, err := RusInternal("А", "Б", "", "11", "1", "820912", 'M', "041217", "292-000"); err == nil {
		t.Error("short series accepted")
	}
}

func TestRegistryNumbers(t *testing.T) {
	r := NewRand(42)
	for i := 0; i < 2000; i++ {
		if s := SNILS(r); !ValidSNILS(s) {
			t.Fatalf("invalid SNILS %s", s)
		}
		if s := INNPerson(r); len(s) != 12 || !ValidINN(s) {
			t.Fatalf("invalid personal INN %s", s)
		}
		if s := INNOrg(r); len(s) != 10 || !ValidINN(s) {
			t.Fatalf("invalid organisation INN %s", s)
		}
		if s := OGRN(r); len(s) != 13 || !ValidOGRN(s) {
			t.Fatalf("invalid OGRN %s", s)
		}
		if s := OGRNIP(r); len(s) != 15 || !ValidOGRN(s) {
			t.Fatalf("invalid OGRNIP %s", s)
		}
		if s := Luhn(r, "2200", 16); !ValidLuhn(s) {
			t.Fatalf("invalid card number %s", s)
		}
	}
	known := []struct {
		s    string
		want bool
	}{{"112-233-445 95", true}, {"112-233-445 96", false}, {"7707083893", true}, {"7707083894", false},
		{"500100732259", true}, {"1027700132195", true}, {"4111111111111111", true}, {"4111111111111112", false}}
	for _, k := range known {
		var got bool
		switch {
		case strings.Contains(k.s, "-"):
			got = ValidSNILS(k.s)
		case len(k.s) == 13:
			got = ValidOGRN(k.s)
		case len(k.s) == 16:
			got = ValidLuhn(k.s)
		default:
			got = ValidINN(k.s)
		}
		if got != k.want {
			t.Errorf("valid(%s) = %v, want %v", k.s, got, k.want)
		}
	}
}
