package synth

import (
	"context"
	"math"
	"testing"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// TestClutterCrops checks the objects cut from the table: each a
// not_document crop no larger than asked, cut only where the scene drew
// clutter clear of every document, and none from scenes without clutter.
func TestClutterCrops(t *testing.T) {
	ctx := context.Background()
	newGen := func(clutter float64) *Generator {
		g, err := New(Config{Seed: 43, Size: 640, ScanProb: -1, Effects: Effects{Clutter: clutter}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	with, without := newGen(3), newGen(0)
	crops := 0
	for i := range 12 {
		sc, err := with.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		clear := 0
		for _, c := range sc.Clutter {
			if !underDocument(c.Quad, sc.Docs) {
				clear++
			}
		}
		cs, err := with.ClutterCrops(ctx, i, 128, 0.02)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) > len(sc.Clutter) || len(sc.Clutter) > 0 && clear == 0 && len(cs) > 0 {
			t.Errorf("scene %d: %d crops of %d objects, %d clear of the documents", i, len(cs), len(sc.Clutter), clear)
		}
		for _, c := range cs {
			if c.Type != doctypes.NotDocument || c.Rotation != 0 {
				t.Errorf("scene %d: crop %s turned %d, want not_document upright", i, c.Type, c.Rotation)
			}
			if b := c.Img.Bounds(); max(b.Dx(), b.Dy()) > 128 {
				t.Errorf("scene %d: crop %v larger than 128", i, b)
			}
		}
		crops += len(cs)
		none, err := without.ClutterCrops(ctx, i, 128, 0.02)
		if err != nil || len(none) != 0 {
			t.Errorf("scene %d without clutter: %d crops, %v", i, len(none), err)
		}
	}
	if crops == 0 {
		t.Error("no clutter cut from 12 scenes drawn with clutter")
	}
}

// TestPenPiece checks that a piece of a pen runs along it, 2 to 6 times
// as long as the pen is wide and 1.5 to 3 times its width across.
func TestPenPiece(t *testing.T) {
	for _, a := range []float64{0, 0.7, 2} {
		pen := ringQuad(rotRect(300, 200, 400, 16, a))
		r := NewRand(7, uint64(a*10))
		for range 20 {
			q := penPiece(pen, r)
			l, w := q.Size()
			if l < 2*16-1e-6 || l > 6*16+1e-6 || w < 1.5*16-1e-6 || w > 3*16+1e-6 {
				t.Fatalf("angle %g: piece %.1f x %.1f of a pen 16 wide", a, l, w)
			}
			along := math.Atan2(q[geom.TR].Y-q[geom.TL].Y, q[geom.TR].X-q[geom.TL].X)
			if d := math.Abs(math.Remainder(along-a, math.Pi)); d > 1e-6 {
				t.Fatalf("angle %g: piece runs at %g", a, along)
			}
		}
	}
}
