package licensed

import (
	"testing"
	"time"

	"docsuite/pkg/apierr"
)

// TestExpiryOnTheServersClock: the license ends when the license server's
// clock says so, whatever this machine's clock reads. A host clock two
// hours fast refused a license the server gave another hour (errno 3), and
// one two hours slow served a license past its end while the server was
// out of reach; the answer's Date header tells the difference.
func TestExpiryOnTheServersClock(t *testing.T) {
	cases := []struct {
		name      string
		skew      time.Duration // the server's clock minus this machine's
		left      time.Duration // expires minus the server's clock
		wantErrno int
	}{
		{"clocks agree, an hour left", 0, time.Hour, 0},
		{"local clock 2 h fast, an hour left", -2 * time.Hour, time.Hour, 0},
		{"local clock 2 h fast, ended a minute ago", -2 * time.Hour, -time.Minute, errno(apierr.LicenseExpired)},
		{"local clock 2 h slow, an hour left", 2 * time.Hour, time.Hour, 0},
		{"local clock 2 h slow, ended a minute ago", 2 * time.Hour, -time.Minute, errno(apierr.LicenseExpired)},
		{"local clock 30 s slow, ended a minute ago", 30 * time.Second, -time.Minute, errno(apierr.LicenseExpired)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			expires := time.Now().Add(tc.skew + tc.left).UTC().Format(time.RFC3339)
			ls := startLicenseServer(t, answer{200, `{"valid":true,"expires":"` + expires + `"}`})
			ls.skew = tc.skew
			d := newDaemon(t, nc, ls, "")
			if _, err := d.Check(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			v := published(t, d)
			if e := errnoOf(v, time.Now()); e != tc.wantErrno {
				t.Fatalf("gateway errno %d, want %d (verdict %+v)", e, tc.wantErrno, v)
			}
			// The published end is on this machine's clock.
			if got := time.Until(v.Expires); (got - tc.left).Abs() > 5*time.Second {
				t.Fatalf("published expiry %v is %v from now, want about %v", v.Expires, got, tc.left)
			}
		})
	}
}
