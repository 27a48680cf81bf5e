package mrz

import (
	"image"
	"strings"
	"testing"

	"docsuite/pkg/ppocr"
)

// probsOf gives every character of line the probability sure, except
// those marked in marks ('?' at the same index), which get doubt.
func probsOf(line, marks string, sure, doubt float64) []float64 {
	p := make([]float64, len(line))
	for i := range p {
		p[i] = sure
		if i < len(marks) && marks[i] == '?' {
			p[i] = doubt
		}
	}
	return p
}

// Blurred fillers read as letters on name lines of phone photos (the
// factory's photos of seed 20261124): put back where the line's shape
// says fillers stand, and nowhere else.
func TestRefillNames(t *testing.T) {
	for _, tc := range []struct {
		name, in, marks, want string
		sure                  float64
		refilled              int
	}{
		{
			name:  "tail of E, separators misread as E",
			in:    "PNRUSPAVLOVEEPAVELEIGOREVI3EEEEEEEEEEEEEEEEE",
			marks: "           ??     ?       ?????????????????",
			want:  "PNRUSPAVLOV<<PAVEL<IGOREVI3<<<<<<<<<<<<<<<<<", sure: 0.97, refilled: 20,
		},
		{
			name:  "tail of C and K, surname's end misread as KC",
			in:    "PNRUSNOVIKOVAKCANNA<PETROVNAKCKCKKCCKCKCCCCC",
			marks: "             ??              ????????????????",
			want:  "PNRUSNOVIKOVA<<ANNA<PETROVNA<<<<<<<<<<<<<<<<", sure: 0.97, refilled: 18,
		},
		{
			name:  "given name and patronymic run together through a C",
			in:    "PNRUSNOVIKOVA<<ANNACPETROVNA<<<<<<<<<<<<<<<<",
			marks: "                   ?",
			want:  "PNRUSNOVIKOVA<<ANNA<PETROVNA<<<<<<<<<<<<<<<<", sure: 0.97, refilled: 1,
		},
		{
			name:  "fillers misread as words of one letter after the names",
			in:    "PNRUSF2DOROV<<7RIQ<SERGEEVI3<CCCC<<C<<<<<<<<",
			marks: "                             ????  ?",
			want:  "PNRUSF2DOROV<<7RIQ<SERGEEVI3<<<<<<<<<<<<<<<<", sure: 0.97, refilled: 5,
		},
		{
			name:  "surname's end and tail misread as K",
			in:    "PNRUSPOPOVKKIGOR9<ALEKSEEVI3K<KK<K<<<<KKKKK2",
			marks: "          ??                ? ?? ?    ??????",
			want:  "PNRUSPOPOV<<IGOR9<ALEKSEEVI3<<<<<<<<<<<<<<<<", sure: 0.97, refilled: 12,
		},
		{
			name: "a clean line is kept",
			in:   "PNRUSVOLKOVA<<NATAL98<PETROVNA<<<<<<<<<<<<<<",
			want: "PNRUSVOLKOVA<<NATAL98<PETROVNA<<<<<<<<<<<<<<", sure: 0.8,
		},
		{
			name: "a name of few letters after the surname is kept, even unsure",
			in:   "PNRUSIVANOVA<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<<",
			want: "PNRUSIVANOVA<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<<", sure: 0.8,
		},
		{
			name: "a long name to the line's end is kept",
			in:   "PNRUSKONSTANTINOPOLSKI8<<KONSTANTIN<KONSTANT",
			want: "PNRUSKONSTANTINOPOLSKI8<<KONSTANTIN<KONSTANT", sure: 0.8,
		},
		{
			name: "a long tail read sure is refilled too",
			in:   "PNRUSZAHAROV<<OLEG<ALEKSEEVI3CCCCECCKCCCCCCK",
			want: "PNRUSZAHAROV<<OLEG<ALEKSEEVI3<<<<<<<<<<<<<<<", sure: 0.97, refilled: 15,
		},
		{
			name: "a short sure tail of letters is a name",
			in:   "PNRUSPAVLOV<<PAVEL<IGOREVI3<<<<<<<<<<<<<<EEEE",
			want: "PNRUSPAVLOV<<PAVEL<IGOREVI3<<<<<<<<<<<<<<EEEE", sure: 0.97,
		},
		{
			name:  "the patronymic found by its ending read VIS",
			in:    "PNRUSZAHAROV<<OLEGCALEKSEEVIS<<<<<<<<<<<<<<<",
			marks: "                  ?",
			want:  "PNRUSZAHAROV<<OLEG<ALEKSEEVI3<<<<<<<<<<<<<<<", sure: 0.97, refilled: 2,
		},
		{
			name: "a surname ending OVIS is kept",
			in:   "PNRUSDAVIS<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<<<",
			want: "PNRUSDAVIS<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<<<", sure: 0.97,
		},
		{
			name: "a short given name ending as a patronymic is not split",
			in:   "PNRUSIVANOV<<BORIS<<<<<<<<<<<<<<<<<<<<<<<<<<",
			want: "PNRUSIVANOV<<BORIS<<<<<<<<<<<<<<<<<<<<<<<<<<", sure: 0.8,
		},
		{
			name: "a given name with no patronymic is not split",
			in:   "PNRUSIVANOVA<<EKATERINA<<<<<<<<<<<<<<<<<<<<<",
			want: "PNRUSIVANOVA<<EKATERINA<<<<<<<<<<<<<<<<<<<<<", sure: 0.8,
		},
		{
			name: "an ICAO passport's line is kept",
			in:   "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
			want: "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", sure: 0.8,
		},
		{
			name:  "an ICAO passport's tail of K",
			in:    "P<UTOERIKSSON<<ANNA<MARIAKKKKKKKKKKKKKKKKKKK",
			marks: "                         ???????????????????",
			want:  "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", sure: 0.97, refilled: 19,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			marks := tc.marks
			if marks == "" {
				marks = strings.Repeat(" ", len(tc.in))
			}
			got, n := refillNames(TD3, tc.in, probsOf(tc.in, marks, tc.sure, 0.6))
			if got != tc.want || n != tc.refilled {
				t.Errorf("got %q (%d refilled), want %q (%d)", got, n, tc.want, tc.refilled)
			}
		})
	}
}

// The sex has no check digit: a blurred M read as N or L is chosen again
// among the letters the position allows.
func TestKindsMarkSex(t *testing.T) {
	for _, tc := range []struct {
		f     Format
		lines []string
		line  int
		at    int
	}{
		{TD3, []string{"PNRUSIVANOV<<IVAN<PETROVI3<<<<<<<<<<<<<<<<<<", ""}, 1, 20},
		{TD3, []string{"P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", ""}, 1, 20},
		{TD2, []string{"I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", ""}, 1, 20},
		{TD1, []string{"I<UTOD231458907<<<<<<<<<<<<<<<", "", ""}, 1, 7},
	} {
		k := kinds(tc.f, tc.lines)[tc.line]
		if k[tc.at] != 'x' || strings.Count(k, "x") != 1 {
			t.Errorf("%v %q: kinds %q, want the one x at %d", tc.f, tc.lines[0], k, tc.at)
		}
	}
	// One character read N at step 5 of 10; the steps say M is the more
	// probable of the letters a sex may be.
	runes := []rune{0, 'F', 'L', 'M', 'N', Filler}
	sp := &ppocr.StepProbs{Rect: image.Rect(0, 0, 10, ppocr.RecHeight), Runes: runes, Steps: 10, P: make([]float32, 10*len(runes))}
	for t := range 10 {
		sp.P[t*len(runes)] = 1 // blank
	}
	copy(sp.P[5*len(runes):], []float32{0, 0.01, 0.05, 0.3, 0.6, 0.04})
	l := ppocr.Line{Text: "N", Chars: []ppocr.Char{{Rune: 'N', Prob: 0.6, X: 5.5}}}
	for _, tc := range []struct{ kind, want string }{{"x", "M"}, {"a", "N"}, {"*", "N"}} {
		if got, _ := (zoneLine{greedy: l, steps: sp}).byKind(l, "N", tc.kind); got != tc.want {
			t.Errorf("kind %s: got %q, want %q", tc.kind, got, tc.want)
		}
	}
}
