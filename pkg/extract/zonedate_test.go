package extract

import (
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
