package synth

import (
	"regexp"
	"testing"
	"time"
)

// The newest stamp of a residence page is the truth of its type: a
// registration (printed or handwritten) or, on the deregistered kind, a
// deregistration; its date is the page's latest.
func TestResidenceNewestStamp(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 11})
	date := regexp.MustCompile(`^\d\d\.\d\d\.\d{4}$`)
	for _, tc := range []struct {
		typ  string
		date string // the truth's date field
	}{
		{"passport_registration", "registration_date"},
		{"passport_registration_handwritten", "registration_date"},
		{"passport_registration_deregistered", "deregistration_date"},
	} {
		for i := 0; i < 8; i++ {
			d, err := g.RenderType(tc.typ, 11, i)
			if err != nil {
				t.Fatal(err)
			}
			if !date.MatchString(d.Fields[tc.date]) {
				t.Fatalf("%s %d: %s = %q; fields %v", tc.typ, i, tc.date, d.Fields[tc.date], d.Fields)
			}
			if _, err := time.Parse("02.01.2006", d.Fields[tc.date]); err != nil {
				t.Errorf("%s %d: %v", tc.typ, i, err)
			}
			if tc.date == "registration_date" {
				if _, other := d.Fields["deregistration_date"]; other {
					t.Errorf("%s %d: a registration's truth has a deregistration date", tc.typ, i)
				}
				o, ok := officeByCode(d.Fields["subdivision_code"])
				if !ok || o.Authority != d.Fields["issuing_authority"] {
					t.Errorf("%s %d: code %q is not the office %q", tc.typ, i, d.Fields["subdivision_code"], d.Fields["issuing_authority"])
				}
				if d.Fields["address"] != d.Fields["locality"]+", "+d.Fields["street"] {
					t.Errorf("%s %d: address %q", tc.typ, i, d.Fields["address"])
				}
			} else if _, other := d.Fields["registration_date"]; other {
				t.Errorf("%s %d: a deregistration's truth has a registration date", tc.typ, i)
			}
		}
	}
}

// Every office of the directory has its own code, outside the real codes'
// levels, and a passport's printed code names its printed authority.
func TestSubdivisionDirectory(t *testing.T) {
	dir := SubdivisionDirectory()
	seen := map[string]bool{}
	code := regexp.MustCompile(`^\d\d9-\d{3}$`)
	for _, s := range dir {
		if seen[s.Code] || !code.MatchString(s.Code) || s.Authority == "" {
			t.Errorf("entry %+v: duplicate or malformed", s)
		}
		seen[s.Code] = true
	}
	if len(dir) != len(names["ru"].places)*len(authorityForms()) {
		t.Errorf("%d entries", len(dir))
	}
	g := newTestGenerator(t, Config{Seed: 5})
	for i := 0; i < 6; i++ {
		d, err := g.RenderType("passport_main", 5, i)
		if err != nil {
			t.Fatal(err)
		}
		a, ok := d.Fields["issuing_authority"]
		if !ok {
			continue
		}
		if o, found := officeByCode(d.Fields["subdivision_code"]); !found || o.Authority != a {
			t.Errorf("passport %d: code %q, authority %q", i, d.Fields["subdivision_code"], a)
		}
	}
}

// A residence page's stamps are dated no later than the factory's today
// (refDate): the extraction leaves out dates after the day of reading, so
// a stamp dated in the future is no truth a page can be read to.
func TestResidenceStampsNotInTheFuture(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 23})
	for _, tc := range []struct{ typ, date string }{
		{"passport_registration", "registration_date"},
		{"passport_registration_handwritten", "registration_date"},
		{"passport_registration_deregistered", "deregistration_date"},
	} {
		late := 0
		const n = 30
		for i := range n {
			d, err := g.RenderType(tc.typ, 23, i)
			if err != nil {
				t.Fatal(err)
			}
			at, err := time.Parse("02.01.2006", d.Fields[tc.date])
			if err != nil {
				t.Fatalf("%s %d: %s: %v", tc.typ, i, tc.date, err)
			}
			if at.After(refDate) {
				late++
				t.Logf("%s %d: %s %s after %s", tc.typ, i, tc.date, d.Fields[tc.date], dmy(refDate))
			}
		}
		if late > 0 {
			t.Errorf("%s: %d of %d pages have their newest stamp dated after the factory's today", tc.typ, late, n)
		}
	}
}
