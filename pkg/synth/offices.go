package synth

import (
	"fmt"
	"sort"
	"strings"
)

// Subdivision is one issuing office of the factory's Russian documents:
// its subdivision code and the name printed as the issuing authority.
type Subdivision struct {
	Code      string
	Authority string
}

// authorityForms are the wordings of an issuing office; %s is the place
// without its "ГОР. " prefix.
func authorityForms() []string {
	return []string{
		"ОТДЕЛОМ УФМС РОССИИ ПО %s",
		"ГУ МВД РОССИИ ПО %s",
		"ОТДЕЛЕНИЕМ УФМС РОССИИ В РАЙОНЕ %s",
		"ОТДЕЛОМ ВНУТРЕННИХ ДЕЛ ОКТЯБРЬСКОГО ОКРУГА ГОРОДА %s",
		"МВД ПО РЕСПУБЛИКЕ ТАТАРСТАН",
		"ТП № 2 ОУФМС РОССИИ ПО %s",
	}
}

// authorityName is the office name of form f for a place (upper case).
func authorityName(f, place string) string {
	place = strings.TrimPrefix(place, "ГОР. ")
	if strings.Contains(f, "%s") {
		return fmt.Sprintf(f, place)
	}
	return f
}

// subdivisionCode is the factory's code of the office of form fi in the
// place of index pi of the Russian places. Its third digit is 9, a level
// real codes do not use (0 to 3: region, city, district, territorial
// office), so a synthetic code is not mistaken for a real office.
func subdivisionCode(pi, fi int) string {
	return fmt.Sprintf("%02d9-%03d", 10+4*pi, 101+11*fi)
}

// SubdivisionDirectory lists every office the factory prints on Russian
// documents (each place of birth with each wording), sorted by code: the
// code printed next to an authority is always the one listed for it. The
// offices are synthetic, as the factory's places and wordings are.
func SubdivisionDirectory() []Subdivision {
	places := names["ru"].places
	forms := authorityForms()
	out := make([]Subdivision, 0, len(places)*len(forms))
	for pi, p := range places {
		for fi, f := range forms {
			out = append(out, Subdivision{Code: subdivisionCode(pi, fi), Authority: authorityName(f, strings.ToUpper(p))})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// officeOf is the office of wording k (any non-negative number, taken
// modulo the wordings) in place; ok is false for a place outside the
// Russian places.
func officeOf(place string, k int) (Subdivision, bool) {
	forms := authorityForms()
	for pi, p := range names["ru"].places {
		if p == place {
			fi := k % len(forms)
			return Subdivision{Code: subdivisionCode(pi, fi), Authority: authorityName(forms[fi], strings.ToUpper(p))}, true
		}
	}
	return Subdivision{}, false
}

// officeByCode finds the factory's office of a code.
func officeByCode(code string) (Subdivision, bool) {
	for _, s := range SubdivisionDirectory() {
		if s.Code == code {
			return s, true
		}
	}
	return Subdivision{}, false
}
