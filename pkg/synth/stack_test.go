package synth

import (
	"bytes"
	"context"
	"image/jpeg"
	"math"
	"testing"

	"docsuite/pkg/geom"
)

// TestStackedScenes checks the stacks the cropper is trained on: with
// StackProb 1 every photographed scene of several documents lays each
// document after the first on top of one before it (covering at least a
// tenth of the smaller, hiding at most half of any below), while with the
// default 0 documents stay apart and scenes a stack cannot apply to are
// byte for byte the same.
func TestStackedScenes(t *testing.T) {
	ctx := context.Background()
	newGen := func(stack float64, minDocs int) *Generator {
		g, err := New(Config{Seed: 31, Size: 480, MinDocs: minDocs, MaxDocs: 3, StackProb: stack,
			Effects: DefaultEffects(), BackgroundDirs: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name    string
		stack   float64
		minDocs int
		// wantStacked: every multi-document photo is a stack; false:
		// documents overlap by at most 18 % of the smaller one.
		wantStacked bool
	}{
		{"stacks", 1, 2, true},
		{"default: apart", 0, 2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newGen(tc.stack, tc.minDocs)
			checked := 0
			for i := range 12 {
				sc, err := g.Scene(ctx, i)
				if err != nil {
					t.Fatal(err)
				}
				if sc.Scan || len(sc.Docs) < 2 {
					continue
				}
				checked++
				touching := 0
				for k := 1; k < len(sc.Docs); k++ {
					q := sc.Docs[k].Lying
					touches := false
					for _, below := range sc.Docs[:k] {
						b := below.Lying
						a := geom.Overlap(q, b)
						small := math.Min(q.Area(), b.Area())
						if tc.wantStacked && a > 0.5*b.Area()+1 {
							t.Errorf("scene %d: document %d hides %.0f %% of one below", i, k, 100*a/b.Area())
						}
						if !tc.wantStacked && a > 0.18*small+1 {
							t.Errorf("scene %d: documents overlap by %.0f %% of the smaller", i, 100*a/small)
						}
						touches = touches || a >= 0.1*small-1
					}
					if touches {
						touching++
					}
				}
				if tc.wantStacked && touching != len(sc.Docs)-1 {
					t.Errorf("scene %d: %d of %d upper documents lie on one below", i, touching, len(sc.Docs)-1)
				}
			}
			if checked < 6 {
				t.Fatalf("only %d photographed multi-document scenes among 12", checked)
			}
		})
	}
	// A single document has nothing to stack on: the scene is unchanged.
	for i := range 4 {
		a, err := newGen(0, 1).Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Docs) != 1 {
			continue
		}
		b, err := newGen(1, 1).Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		var ba, bb bytes.Buffer
		if err := jpeg.Encode(&ba, a.Img, nil); err != nil {
			t.Fatal(err)
		}
		if err := jpeg.Encode(&bb, b.Img, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ba.Bytes(), bb.Bytes()) {
			t.Errorf("scene %d (one document) changed with StackProb", i)
		}
	}
}
