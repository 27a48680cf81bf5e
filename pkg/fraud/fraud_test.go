package fraud

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

func TestJudge(t *testing.T) {
	cases := []struct {
		name    string
		signs   []Sign
		score   float64
		verdict string
	}{
		{"no signs", nil, 0, Clean},
		{"one confident copy", []Sign{{Type: CopyMove, Confidence: 0.9}}, 0.9, Suspicious},
		{"one weak sign", []Sign{{Type: PhotoBox, Confidence: 0.3}}, 0.3, Clean},
		// one cause seen twice is not twice the evidence
		{"two weak signs of one type", []Sign{{Type: PhotoBox, Confidence: 0.4}, {Type: PhotoBox, Confidence: 0.3}}, 0.4, Clean},
		// independent checks add up
		{"two weak signs of two types", []Sign{{Type: PhotoBox, Confidence: 0.4}, {Type: CopyMove, Confidence: 0.3}}, 0.58, Suspicious},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Judge(c.signs)
			if math.Abs(r.Score-c.score) > 1e-9 || r.Verdict != c.verdict {
				t.Fatalf("score %v verdict %s, want %v %s", r.Score, r.Verdict, c.score, c.verdict)
			}
			if r.Signs == nil {
				t.Fatal("signs must be an empty list, not null")
			}
		})
	}
}

func TestFitLogisticRecoversCoefficients(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const a, b = -2.0, 1.5
	var xs []float64
	var ys []bool
	for i := 0; i < 4000; i++ {
		x := rng.Float64() * 4
		p := 1 / (1 + math.Exp(-(a + b*x)))
		xs = append(xs, x)
		ys = append(ys, rng.Float64() < p)
	}
	l := FitLogistic(xs, ys)
	if math.Abs(l.A-a) > 0.3 || math.Abs(l.B-b) > 0.2 {
		t.Fatalf("fitted a=%.3f b=%.3f, want %.1f %.1f", l.A, l.B, a, b)
	}
}

func TestShippedCalibrationIsMonotone(t *testing.T) {
	c, err := DefaultCalibration()
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{CopyMove, Splicing, PhotoBox} {
		if c.Confidence(typ, 1) > c.Confidence(typ, 3) {
			t.Errorf("%s: a stronger sign gets less confidence", typ)
		}
	}
}

func TestMetadataSign(t *testing.T) {
	testutil.Need(t, "convert", "exiftool")
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", "-size", "300x200", "plasma:", "plain.jpg")
	testutil.Run(t, dir, "convert", "-size", "300x200", "plasma:", "edited.jpg")
	testutil.Run(t, dir, "exiftool", "-q", "-overwrite_original", "-Software=Adobe Photoshop 25.0 (Windows)", "edited.jpg")
	an, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	fc := newMetaChecker(t)
	coords := [][2]int{{0, 0}, {300, 0}, {0, 200}, {300, 200}}
	cases := []struct {
		file   string
		editor string // empty: no sign
	}{
		{"plain.jpg", ""},
		{"edited.jpg", "Adobe Photoshop"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			signs := an.Metadata(fc.Check(data), coords)
			if c.editor == "" {
				if len(signs) != 0 {
					t.Fatalf("sign on a plain file: %+v", signs)
				}
				return
			}
			if len(signs) != 1 || signs[0].Type != EditorMetadata || !strings.Contains(signs[0].Message, c.editor) {
				t.Fatalf("want one editor_metadata sign naming %s, got %+v", c.editor, signs)
			}
			if r := Judge(signs); r.Verdict != Suspicious {
				t.Fatalf("a file saved by %s is %s (score %v)", c.editor, r.Verdict, r.Score)
			}
		})
	}
}
