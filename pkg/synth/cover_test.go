package synth

import (
	"context"
	"image/color"
	"testing"

	"docsuite/pkg/doctypes"
)

// TestScenesWithCovers checks CoverProb: with it at 1 every photographed
// scene's later documents are closed booklet covers of the class other,
// dark, lying where their quad says; the first document keeps its drawn
// type and the scene its number of documents.
func TestScenesWithCovers(t *testing.T) {
	ctx := context.Background()
	newGen := func(cover float64) *Generator {
		g, err := New(Config{Seed: 41, Size: 480, MinDocs: 2, MaxDocs: 3, ScanProb: -1, CoverProb: cover,
			Effects: Effects{}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	with, without := newGen(1), newGen(0)
	covers := 0
	for i := range 6 {
		a, err := without.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		b, err := with.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Docs) != len(b.Docs) {
			t.Fatalf("scene %d: %d documents without covers, %d with", i, len(a.Docs), len(b.Docs))
		}
		if b.Docs[0].Type != a.Docs[0].Type {
			t.Errorf("scene %d: first document %s became %s", i, a.Docs[0].Type, b.Docs[0].Type)
		}
		for j, d := range b.Docs[1:] {
			if d.Type != doctypes.Other {
				t.Errorf("scene %d document %d: %s, want a cover (other)", i, j+1, d.Type)
				continue
			}
			covers++
			// The middle of the cover's margin (clear of its frame and
			// lettering, whichever way it lies) is dark leatherette.
			p := d.Quad.At(0.025, 0.5)
			c := b.Img.At(int(p.X), int(p.Y)).(color.RGBA)
			if lum := 0.3*float64(c.R) + 0.59*float64(c.G) + 0.11*float64(c.B); lum > 150 {
				t.Errorf("scene %d document %d: margin luminance %.0f, not a cover", i, j+1, lum)
			}
		}
	}
	if covers == 0 {
		t.Fatal("no cover drawn")
	}
}

// A cover template is a booklet's size with rounded corners, dark, with a
// title or an emblem on it, and differs from seed to seed.
func TestProceduralCover(t *testing.T) {
	seen := map[string]bool{}
	for i := range 40 {
		tpl := ProceduralCover(NewRand(5, uint64(i)))
		w, h := tpl.SizeMM[0], tpl.SizeMM[1]
		if w < 80 || w > 110 || h < 115 || h > 150 || tpl.CornerMM <= 0 {
			t.Fatalf("seed %d: %.0f x %.0f mm, corner %.1f: not a booklet", i, w, h, tpl.CornerMM)
		}
		if tpl.Type != doctypes.Other {
			t.Fatalf("seed %d: type %q", i, tpl.Type)
		}
		emblem := false
		for _, e := range tpl.Elements {
			emblem = emblem || e.Kind == "emblem"
		}
		if !emblem {
			t.Errorf("seed %d: no emblem", i)
		}
		seen[layoutKey(t, tpl)] = true
	}
	if len(seen) < 40 {
		t.Errorf("40 seeds drew %d covers", len(seen))
	}
}
