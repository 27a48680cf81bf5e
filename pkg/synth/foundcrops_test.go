package synth

import (
	"context"
	"image"
	"math"
	"testing"

	"docsuite/pkg/geom"
)

func TestOrderLike(t *testing.T) {
	// ref: a 100 x 60 document lying upright; the found quads list the same
	// corners (moved a few pixels) in other orders a cropper may give.
	tl, tr, bl, br := geom.Point{X: 10, Y: 20}, geom.Point{X: 110, Y: 20}, geom.Point{X: 10, Y: 80}, geom.Point{X: 110, Y: 80}
	ref := geom.Quad{tl, tr, bl, br}
	nudge := func(p geom.Point) geom.Point { return geom.Point{X: p.X + 3, Y: p.Y - 2} }
	tests := []struct {
		name string
		q    geom.Quad
	}{
		{"same order", geom.Quad{tl, tr, bl, br}},
		{"a quarter turn", geom.Quad{bl, tl, br, tr}},
		{"half a turn", geom.Quad{br, bl, tr, tl}},
		{"mirrored", geom.Quad{tr, tl, br, bl}},
		{"mirrored and turned", geom.Quad{tl, bl, tr, br}},
		{"moved a little", geom.Quad{nudge(br), nudge(bl), nudge(tr), nudge(tl)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := OrderLike(tc.q, ref)
			for k := range got {
				if d := math.Hypot(got[k].X-ref[k].X, got[k].Y-ref[k].Y); d > 4 {
					t.Errorf("corner %d = %v, want near %v (%.1f px away)", k, got[k], ref[k], d)
				}
			}
		})
	}
}

func TestFoundCropsLabelsWhatFindMatched(t *testing.T) {
	g, err := New(Config{Seed: 7, Size: 640, MinDocs: 2, MaxDocs: 2, ScanProb: 1})
	if err != nil {
		t.Fatal(err)
	}
	var docs []SceneDoc
	// A finder that cuts the second document along its own corners only:
	// the crop must carry that document's type and rotation, no other.
	find := func(_ context.Context, img image.Image, d []SceneDoc) ([]FoundCut, error) {
		docs = d
		return []FoundCut{{Doc: 1, Quad: d[1].Lying}}, nil
	}
	crops, err := g.FoundCrops(context.Background(), 0, 128, find)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 || len(crops) != 1 {
		t.Fatalf("%d documents, %d crops; want 2 and 1", len(docs), len(crops))
	}
	if crops[0].Type != docs[1].Type || crops[0].Rotation != docs[1].Rotation {
		t.Errorf("crop is %s/%d, want %s/%d", crops[0].Type, crops[0].Rotation, docs[1].Type, docs[1].Rotation)
	}
	if b := crops[0].Img.Bounds(); max(b.Dx(), b.Dy()) != 128 {
		t.Errorf("crop is %v, want 128 px on its longer side", b)
	}
	bad := func(context.Context, image.Image, []SceneDoc) ([]FoundCut, error) {
		return []FoundCut{{Doc: 5, Quad: docs[0].Lying}}, nil
	}
	if _, err := g.FoundCrops(context.Background(), 0, 128, bad); err == nil {
		t.Error("a cut naming a document the scene does not have gave no error")
	}
}
