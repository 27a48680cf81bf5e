package licensed

import (
	"testing"
	"time"
)

// TestUsageSurvivesRestart: requests counted before the daemon restarts,
// while the license server is away, still lower requests_left after it.
// The restarted daemon took the counter's value at its start as the basis
// of the last answer, so every request counted since that answer (while
// the daemon was stopped, or since its last refresh) was forgotten: a
// quota of 50 with 40 used was published as 50 left again.
func TestUsageSurvivesRestart(t *testing.T) {
	cases := []struct {
		name            string
		beforeRefresh   int // requests counted, then the old daemon refreshes
		afterRefresh    int // requests counted after that, before the restart
		wantLeftAtStart int64
	}{
		{"counted while the daemon was stopped", 0, 40, 10},
		{"refreshed, then more counted", 30, 15, 5},
		{"more counted than left", 20, 45, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nc := startNATS(t)
			ls := startLicenseServer(t, answer{200, `{"valid":true,"requests_left":50}`})
			d := newDaemon(t, nc, ls, "")
			if _, err := d.Check(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			countAndWait(t, d, tc.beforeRefresh)
			if err := d.Refresh(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			countAndWait(t, d, tc.afterRefresh)
			ls.srv.Close()
			restarted := newDaemon(t, nc, ls, "")
			if _, err := restarted.Check(ctxT(t)); err == nil {
				t.Fatal("want the server unreachable")
			}
			if err := restarted.Refresh(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			v := published(t, restarted)
			if v.RequestsLeft == nil || *v.RequestsLeft != tc.wantLeftAtStart {
				t.Fatalf("after the restart requests_left = %v, want %d (verdict %+v)", deref(v.RequestsLeft), tc.wantLeftAtStart, v)
			}
		})
	}
}

// countAndWait counts n accepted requests and waits until the usage
// stream holds them.
func countAndWait(t *testing.T, d *Daemon, n int) {
	t.Helper()
	before, err := ReadUsage(ctxT(t), d.usage)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		if err := CountRequest(d.nc); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		u, err := ReadUsage(ctxT(t), d.usage)
		if err == nil && u.RequestsTotal == before.RequestsTotal+int64(n) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("usage counter %+v (%v), want %d", u, err, before.RequestsTotal+int64(n))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}
