package ppocr

import (
	"image"
	"testing"
)

// steps builds step probabilities over the classes blank, '<', 'A', 'B'
// from one row of letters: at each step the named class gets p and the
// others share the rest ('-' is the blank, '*' a filler whose step is
// nearly as likely a blank).
func steps(rows string, p float32) *StepProbs {
	runes := []rune{0, '<', 'A', 'B'}
	sp := &StepProbs{Rect: image.Rect(0, 0, 10*len(rows), 48), Runes: runes, Steps: len(rows)}
	for _, r := range rows {
		if r == '*' {
			sp.P = append(sp.P, 0.45, 0.5, 0.025, 0.025)
			continue
		}
		k := 0
		for i, c := range runes {
			if c == r {
				k = i
			}
		}
		for i := range runes {
			v := (1 - p) / float32(len(runes)-1)
			if i == k {
				v = p
			}
			sp.P = append(sp.P, v)
		}
	}
	return sp
}

// Exact-length decoding: the best path of n characters, which puts back
// a repeat the greedy reading merged and drops a character it added.
func TestStepsDecode(t *testing.T) {
	for _, tc := range []struct {
		rows, greedy string
		n            int
		exact        string
		ok           bool
	}{
		{"A-<<<-B", "A<B", 3, "A<B", true},
		{"A-<*<-B", "A<B", 4, "A<<B", true}, // the merged run of fillers split
		{"A-<<<-B", "A<B", 5, "", true},     // three fillers need five steps: some other character comes in
		{"A-B-A-B", "ABAB", 3, "", true},    // one character dropped, which one is the steps' choice
		{"A-B", "AB", 4, "", false},         // too few steps
		{"AA--BB", "AB", 2, "AB", true},
	} {
		sp := steps(tc.rows, 0.9)
		if g := sp.Greedy(); g.Text != tc.greedy {
			t.Errorf("%s: greedy %q, want %q", tc.rows, g.Text, tc.greedy)
		}
		l, ok := sp.Exact(tc.n)
		if ok != tc.ok {
			t.Errorf("%s n=%d: ok %v, want %v", tc.rows, tc.n, ok, tc.ok)
			continue
		}
		if ok && len([]rune(l.Text)) != tc.n {
			t.Errorf("%s n=%d: %q has %d characters", tc.rows, tc.n, l.Text, len([]rune(l.Text)))
		}
		if tc.exact != "" && l.Text != tc.exact {
			t.Errorf("%s n=%d: exact %q, want %q", tc.rows, tc.n, l.Text, tc.exact)
		}
		for i := 1; i < len(l.Chars); i++ {
			if l.Chars[i].X <= l.Chars[i-1].X {
				t.Errorf("%s n=%d: characters out of order %v", tc.rows, tc.n, l.Chars)
			}
		}
	}
}
