package synth

import (
	"context"
	"testing"
)

// TestNoDocumentUnderMinArea checks that crowded scenes, where the
// largest document is laid smallest, draw no document under minDocArea of
// the image: the cropper does not look for documents that small, so the
// factory's test sets must not count them as missed.
func TestNoDocumentUnderMinArea(t *testing.T) {
	g, err := New(Config{Seed: 33, Size: 480, MinDocs: 4, MaxDocs: 4, ScanProb: -1,
		Effects: DefaultEffects(), BackgroundDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	docs := 0
	for i := range 24 {
		sc, err := g.Scene(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		page := float64(sc.Img.Rect.Dx() * sc.Img.Rect.Dy())
		for _, d := range sc.Docs {
			docs++
			if a := d.Lying.Area() / page; a < minDocArea {
				t.Errorf("scene %d: %s covers %.2f %% of the image, under %.0f %%", i, d.Type, 100*a, 100*minDocArea)
			}
		}
	}
	if docs < 48 {
		t.Errorf("%d documents in 24 scenes of four: too many left out", docs)
	}
}
