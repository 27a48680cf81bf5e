package extract

import (
	"time"

	"docsuite/pkg/mrz"
)

// minHolderAge is the age at which a Russian internal passport is first
// issued: its holder was born at least that many years before its issue.
const minHolderAge = 14

// mrzDate formats a YYMMDD zone date as dd.mm.yyyy, of the latest century
// that puts it no later than now; "" when impossible.
func (x *Extractor) mrzDate(yymmdd string) string {
	return zoneDate(yymmdd, x.now())
}

// zoneBirthDate formats the birth date of a Russian internal passport's
// zone as dd.mm.yyyy. Its century is the latest that makes the holder
// minHolderAge at the issue date (when issueChecked: the optional data's
// check digit holds, so the zone's issue date is the one printed), or
// now: a holder born in 1925 answered 2025, a baby's birth date, where
// only the century before is possible. "" when the date is impossible.
func (x *Extractor) zoneBirthDate(ru *mrz.RussianInternal, issueChecked bool) string {
	latest := x.now()
	if issueChecked {
		if t, err := mrz.Date(ru.IssueDate, latest, false); err == nil {
			latest = t
		}
	}
	return zoneDate(ru.BirthDate, latest.AddDate(-minHolderAge, 0, 0))
}

// zoneDate formats a YYMMDD zone date as dd.mm.yyyy, of the latest century
// that puts it no later than latest; "" when impossible.
func zoneDate(yymmdd string, latest time.Time) string {
	t, err := mrz.Date(yymmdd, latest, false)
	if err != nil {
		return ""
	}
	return t.Format("02.01.2006")
}

// dropLaterDates removes the passport's dates later than the day of now:
// no one is born, and no passport is issued, after the day it is read, so
// such a date is a misreading (an issue date's 2023 read as 2028, a date
// read off another document asked for as a passport) and is left out, as
// an impossible date is. The zone's dates are never later.
func dropLaterDates(f Fields, now time.Time) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"date_of_birth", "date_of_issue"} {
		d, err := time.Parse("02.01.2006", f[name].Text)
		if err == nil && d.After(today) {
			delete(f, name)
		}
	}
}
