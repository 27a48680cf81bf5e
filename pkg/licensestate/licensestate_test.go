package licensestate

import (
	"testing"
	"time"

	"docsuite/pkg/apierr"
)

func TestCheck(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	zero, five := int64(0), int64(5)
	grace := 72 * time.Hour
	tests := []struct {
		name string
		v    Verdict
		want apierr.Code
	}{
		{"valid", Verdict{Valid: true, CheckedAt: now.Add(-time.Hour), Expires: now.Add(24 * time.Hour), RequestsLeft: &five}, ""},
		{"never checked", Verdict{}, apierr.LicenseInvalid},
		{"unreachable within grace", Verdict{Valid: true, CheckedAt: now.Add(-71 * time.Hour)}, ""},
		{"unreachable past grace", Verdict{Valid: true, CheckedAt: now.Add(-73 * time.Hour)}, apierr.LicenseInvalid},
		// A check interval longer than the grace period: the server answered
		// the last check and the next is not due, so the grace does not run.
		{"reached, interval over grace, next check due later", Verdict{Valid: true, CheckedAt: now.Add(-100 * time.Hour),
			Reachable: true, NextCheck: now.Add(20 * time.Hour)}, ""},
		{"reached, next check just overdue", Verdict{Valid: true, CheckedAt: now.Add(-100 * time.Hour),
			Reachable: true, NextCheck: now.Add(-ScheduleSlack / 2)}, ""},
		{"reached, daemon silent past its schedule and the grace", Verdict{Valid: true, CheckedAt: now.Add(-100 * time.Hour),
			Reachable: true, NextCheck: now.Add(-ScheduleSlack - time.Second)}, apierr.LicenseInvalid},
		{"unreachable since, its next check long past", Verdict{Valid: true, CheckedAt: now.Add(-100 * time.Hour),
			Reachable: false, NextCheck: now.Add(time.Hour)}, apierr.LicenseInvalid},
		{"refused by a reached server, next check later", Verdict{Valid: false, CheckedAt: now.Add(-100 * time.Hour),
			Reachable: true, NextCheck: now.Add(time.Hour), Reason: "revoked"}, apierr.LicenseInvalid},
		{"expired", Verdict{Valid: true, CheckedAt: now, Expires: now.Add(-time.Second)}, apierr.LicenseExpired},
		{"exhausted", Verdict{Valid: true, CheckedAt: now, RequestsLeft: &zero}, apierr.LicenseExhausted},
		{"refused", Verdict{Valid: false, CheckedAt: now, Reason: "revoked"}, apierr.LicenseInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.v.Check(now, grace)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want serve, got %v", err)
				}
				return
			}
			if e := apierr.As(err); e.Code != tc.want || e.Status() != 403 {
				t.Fatalf("want %s (403), got %v", tc.want, err)
			}
		})
	}
}
