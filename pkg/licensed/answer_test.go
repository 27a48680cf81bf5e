package licensed

import (
	"testing"
	"time"
)

// TestAnswerWithoutVerdictKeepsGrace: a 2xx whose JSON body holds no
// "valid" field (a portal's or a proxy's page, an empty object, null) is
// no verdict: the server counts as unreachable and the last valid verdict
// stays in force within the grace period, instead of refusing a valid
// installation at once.
func TestAnswerWithoutVerdictKeepsGrace(t *testing.T) {
	cases := []struct {
		name string
		body string
	}{
		{"empty object", `{}`},
		{"null", `null`},
		{"a portal's error", `{"error":"upstream maintenance"}`},
		{"requests left alone", `{"requests_left":5}`},
		{"valid null", `{"valid":null}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			ls := startLicenseServer(t, answer{200, `{"valid":true,"requests_left":50}`})
			d := newDaemon(t, nc, ls, "")
			if _, err := d.Check(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			ls.setScript(answer{200, tc.body})
			if _, err := d.Check(ctxT(t)); err == nil {
				t.Fatalf("a 200 answer %s was taken as a verdict", tc.body)
			}
			v := published(t, d)
			if v.Reachable || !v.Valid {
				t.Fatalf("published %+v: want the last valid verdict, marked unreachable", v)
			}
			if e := errnoOf(v, time.Now()); e != 0 {
				t.Fatalf("gateway errno %d within the grace period, want 0 (verdict %+v)", e, v)
			}
		})
	}
}
