package extract

import (
	"slices"
	"testing"
	"time"

	"docsuite/pkg/mrz"
)

// A zone's birth date is of the century that makes its holder old enough
// for the passport: born at least 14 years before its issue (or before
// the day of reading, when the issue date is not verified).
func TestZoneBirthDate(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	x := &Extractor{now: func() time.Time { return now }}
	for _, tc := range []struct {
		name          string
		birth, issue  string
		issueVerified bool
		want          string
	}{
		{"holder born in 1925, passport of 2015", "250310", "150816", true, "10.03.1925"},
		{"holder born in 1925, issue date unverified", "250310", "150816", false, "10.03.1925"},
		{"holder born this year's spring a century ago", "260401", "200101", true, "01.04.1926"},
		{"holder of 14 at the issue", "100101", "240115", true, "01.01.2010"},
		{"holder born in 1964", "641008", "050816", true, "08.10.1964"},
		{"holder of 14 now, issue unverified", "120601", "990101", false, "01.06.2012"},
		{"holder of 14 tomorrow: the century before", "121204", "260101", true, "04.12.1912"},
		{"impossible date", "991332", "050816", true, ""},
	} {
		ru := &mrz.RussianInternal{BirthDate: tc.birth, IssueDate: tc.issue}
		if got := x.zoneBirthDate(ru, tc.issueVerified); got != tc.want {
			t.Errorf("%s: birth %s issue %s gives %q, want %q", tc.name, tc.birth, tc.issue, got, tc.want)
		}
	}
}

// A passport's date later than the day it is read is left out; the day
// itself, where the reader's clock stands, is kept.
func TestLaterDatesLeftOut(t *testing.T) {
	msk := time.FixedZone("MSK", 3*3600)
	noon := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name       string
		now        time.Time
		birth      string
		issue      string
		wantFields []string
	}{
		{"issue date of a later year", noon, "08.10.1964", "22.01.2028", []string{"date_of_birth", "sex"}},
		{"birth date of a later year", noon, "11.02.2030", "16.08.2005", []string{"date_of_issue", "sex"}},
		{"issue date of tomorrow", noon, "08.10.1964", "04.12.2026", []string{"date_of_birth", "sex"}},
		{"issue date of today", noon, "08.10.1964", "03.12.2026", []string{"date_of_birth", "date_of_issue", "sex"}},
		{"issue date of today, early in Moscow", time.Date(2026, 12, 3, 1, 0, 0, 0, msk), "08.10.1964", "03.12.2026",
			[]string{"date_of_birth", "date_of_issue", "sex"}},
		{"both in the past", noon, "08.10.1964", "16.08.2005", []string{"date_of_birth", "date_of_issue", "sex"}},
	} {
		f := Fields{"date_of_birth": {Text: tc.birth}, "date_of_issue": {Text: tc.issue}, "sex": {Text: "МУЖ."}}
		dropLaterDates(f, tc.now)
		var got []string
		for k := range f {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.wantFields) {
			t.Errorf("%s: fields %v, want %v", tc.name, got, tc.wantFields)
		}
	}
}
