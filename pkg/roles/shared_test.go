package roles

import (
	"context"
	"image"
	"testing"

	"docsuite/pkg/geom"
	"docsuite/pkg/orient"
	"docsuite/pkg/synth"
)

// TestOneDocnetRunServesTypeAndOrientation checks that the classify
// stage's single run of docnet (the classifier's outputs, whose
// orientation head a zone reader without docnet of its own takes, as the
// role opens it) answers exactly as the type and the orientation each
// computed by their own run: same type, confidence, rotation and rotation
// probability, on factory crops lying several ways.
func TestOneDocnetRunServesTypeAndOrientation(t *testing.T) {
	m := testModels(true)
	zr := openTestZoneReader(t, m)
	cl := openTestClassifier(t, m)
	shared, err := openZoneReader(m, testLog(), true, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shared.Close() })
	g, err := synth.New(synth.Config{Seed: 11, Size: 1000, Effects: synth.DefaultEffects()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rots := map[geom.Rotation]bool{}
	for i := 0; i < 6 || len(rots) < 3; i++ {
		if i == 30 {
			t.Fatalf("30 factory scenes gave crops lying only %d ways", len(rots))
		}
		crops, err := g.Crops(ctx, i, 640, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range crops {
			out, err := cl.Outputs(ctx, c.Img)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(out[orient.OrientHead]); n != geom.NumRotations {
				t.Fatalf("the classifier's run gives %d orientation logits, want %d", n, geom.NumRotations)
			}
			ev1, rot1, p1, err := shared.ReadLogits(ctx, c.Img, out[orient.OrientHead], readHints{Zone: true})
			if err != nil {
				t.Fatal(err)
			}
			one, err := cl.ClassifyOutputs(out, nil, ev1)
			if err != nil {
				t.Fatal(err)
			}
			ev2, rot2, p2, err := zr.Read(ctx, c.Img)
			if err != nil {
				t.Fatal(err)
			}
			two, err := cl.ClassifyWith(ctx, c.Img, nil, ev2)
			if err != nil {
				t.Fatal(err)
			}
			if rot1 != rot2 || p1 != p2 || one.Type != two.Type || one.Confidence != two.Confidence {
				t.Errorf("scene %d %s: one run %s %.6f turned %v (%.6f), two runs %s %.6f turned %v (%.6f)",
					i, c.Type, one.Type, one.Confidence, rot1, p1, two.Type, two.Confidence, rot2, p2)
			}
			rots[c.Rotation] = true
		}
	}
	if _, _, _, err := shared.Read(ctx, image.NewRGBA(image.Rect(0, 0, 400, 300))); err == nil {
		t.Error("a zone reader without docnet read a crop without its logits")
	}
}

// TestBlankPagesTurnedByThePicture checks the classify stage's hint for
// pages printed without text: on fresh factory crops of blank passport
// pages the picture names (classify.Classifier.Textless), the orientation
// is docnet's and right on most, where the text lines (a guilloche read as
// a line or two) would turn more of them wrong (31 and 29 of 40 when
// written).
func TestBlankPagesTurnedByThePicture(t *testing.T) {
	m := testModels(true)
	cl := openTestClassifier(t, m)
	shared, err := openZoneReader(m, testLog(), true, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = shared.Close() })
	g, err := synth.New(synth.Config{Seed: 747474, Size: 1600, Effects: synth.DefaultEffects(), Types: []string{"passport_blank_page"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n, hinted, lines := 0, 0, 0
	for i := 0; n < 40; i++ {
		crops, err := g.Crops(ctx, i, 900, 0.04)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range crops {
			if c.Type != "passport_blank_page" {
				continue
			}
			out, err := cl.Outputs(ctx, c.Img)
			if err != nil {
				t.Fatal(err)
			}
			if !cl.Textless(out) {
				continue
			}
			n++
			_, rot, _, err := shared.ReadLogits(ctx, c.Img, out[orient.OrientHead], readHints{Zone: true, PictureOrients: true})
			if err != nil {
				t.Fatal(err)
			}
			if rot == c.Rotation {
				hinted++
			}
			_, rot, _, err = shared.ReadLogits(ctx, c.Img, out[orient.OrientHead], readHints{Zone: true})
			if err != nil {
				t.Fatal(err)
			}
			if rot == c.Rotation {
				lines++
			}
		}
	}
	t.Logf("blank pages turned right: %d of %d by the picture, %d by the picture and the text lines", hinted, n, lines)
	if hinted*10 < 7*n || hinted <= lines {
		t.Errorf("by the picture %d of %d right, with the text lines %d: want at least 70 %% and more than with the lines", hinted, n, lines)
	}
}
