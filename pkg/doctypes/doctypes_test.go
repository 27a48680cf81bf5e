package doctypes

import "testing"

func TestCatalogue(t *testing.T) {
	all := All()
	if len(all) != 97 {
		t.Fatalf("want 97 identifiers, got %d", len(all))
	}
	seen := map[string]bool{}
	for _, id := range all {
		if seen[id] {
			t.Errorf("duplicate %q", id)
		}
		seen[id] = true
	}
	if !Known("health_insurance_certficate_moscow_card_front") {
		t.Error("the description's spelling must be kept")
	}
	if Known("passport") {
		t.Error("unknown identifier accepted")
	}
}

func TestFamily(t *testing.T) {
	tests := map[string]string{
		"kz_id_2014_front":         "kz_id",
		"passport_main":            "passport",
		"driver_license_2011_back": "driver_license",
		"tur_passport_2022_main":   "tur_passport",
		"passport_registration":    "passport_registration",
	}
	for in, want := range tests {
		if got := Family(in); got != want {
			t.Errorf("Family(%q) = %q, want %q", in, got, want)
		}
	}
}
