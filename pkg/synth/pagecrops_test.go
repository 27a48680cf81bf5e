package synth

import (
	"context"
	"testing"

	"docsuite/pkg/doctypes"
)

// TestPageCrops checks the loose views of a page: one per scene of one
// document at most, labelled with that document's type and turn, no
// larger than asked, kept for at least half of such scenes, and none from
// scenes of several documents.
func TestPageCrops(t *testing.T) {
	ctx := context.Background()
	newGen := func(minDocs, maxDocs int) *Generator {
		g, err := New(Config{Seed: 44, Size: 640, MinDocs: minDocs, MaxDocs: maxDocs, Effects: DefaultEffects()})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	one, many := newGen(1, 1), newGen(2, 3)
	kept := 0
	for i := range 16 {
		sc, err := one.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := one.PageCrops(ctx, i, 160, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) > 1 {
			t.Fatalf("scene %d: %d page crops, want at most 1", i, len(cs))
		}
		for _, c := range cs {
			d := sc.Docs[0]
			if c.Type != d.Type || c.Rotation != d.Rotation {
				t.Errorf("scene %d: page crop %s turned %d, want %s turned %d", i, c.Type, c.Rotation, d.Type, d.Rotation)
			}
			if doctypes.IsSpecial(c.Type) && c.Rotation != 0 {
				t.Errorf("scene %d: %s page crop turned %d", i, c.Type, c.Rotation)
			}
			if b := c.Img.Bounds(); max(b.Dx(), b.Dy()) > 160 || min(b.Dx(), b.Dy()) < 8 {
				t.Errorf("scene %d: page crop %v, want its longer side at most 160", i, b)
			}
			kept++
		}
		none, err := many.PageCrops(ctx, i, 160, 0)
		if err != nil || len(none) != 0 {
			t.Errorf("scene %d of several documents: %d page crops, %v", i, len(none), err)
		}
	}
	if kept < 8 {
		t.Errorf("%d page crops from 16 scenes of one document, want at least 8", kept)
	}
}
