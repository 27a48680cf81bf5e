package licensed

import (
	"fmt"
	"testing"
	"time"

	"docsuite/pkg/testutil"
)

// TestRenewalPickedUp: a license renewed at the vendor's is picked up
// within the retry interval, not at the next regular check: a refused
// verdict is checked again as a failed check is (RetryInterval, doubling
// up to LICENSE_CHECK_INTERVAL), and a quota used up between checks is
// reported to the server at once. With the default hourly interval an
// installation whose license was renewed answered 403 for up to an hour,
// unless an operator ran the NATS request of docs/license.md, which needs
// a nats client that the images do not ship.
func TestRenewalPickedUp(t *testing.T) {
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	cases := []struct {
		name    string
		script  []answer
		count   int   // requests counted once the first verdict is out
		wantMin int64 // requests_left of the renewed verdict
	}{
		{"expired, then renewed", []answer{{200, `{"valid":true,"expires":"` + past + `"}`}, {200, `{"valid":true,"requests_left":100}`}}, 0, 100},
		{"revoked, then restored", []answer{{200, `{"valid":false,"reason":"revoked"}`}, {200, `{"valid":true,"requests_left":100}`}}, 0, 100},
		{"exhausted, then topped up", []answer{{200, `{"valid":true,"requests_left":0}`}, {200, `{"valid":true,"requests_left":100}`}}, 0, 100},
		{"used up between checks, then topped up", []answer{{200, `{"valid":true,"requests_left":2}`}, {200, `{"valid":true,"requests_left":100}`}}, 3, 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			ls := startLicenseServer(t, tc.script...)
			d := newDaemon(t, nc, ls, "")
			runDaemon(t, d)
			testutil.Eventually(t, 5*time.Second, func() error {
				if n := len(ls.received()); n == 0 {
					return fmt.Errorf("no check yet")
				}
				return nil
			})
			for range tc.count {
				if err := CountRequest(nc); err != nil {
					t.Fatal(err)
				}
			}
			testutil.Eventually(t, 5*time.Second, func() error {
				v := published(t, d)
				if e := errnoOf(v, time.Now()); e != 0 || v.RequestsLeft == nil || *v.RequestsLeft < tc.wantMin-int64(tc.count) {
					return fmt.Errorf("errno %d, verdict %+v after %d checks", e, v, len(ls.received()))
				}
				return nil
			})
		})
	}
}
