package roles

import (
	"context"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/synth"
)

// TestSettledZoneSparesWords checks that the classifier worker's reader
// skips the printed words (and the edge number) on a crop whose zone
// settles the type, and that
// the answer is the one the words' reading gives: the same type and
// rotation, on factory passports and identity cards with a zone (year
// variants among them), while crops without a settling zone still have
// their words read.
func TestSettledZoneSparesWords(t *testing.T) {
	m := testModels(true)
	reads := openTestZoneReader(t, m)
	cl := openTestClassifier(t, m)
	spares, err := openZoneReader(m, testLog(), false, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	spares.spareSettled = true
	t.Cleanup(func() { _ = spares.Close() })
	if reads.tess == nil {
		t.Skip("Tesseract did not load: no words are read either way")
	}
	g, err := synth.New(synth.Config{Seed: 21, Size: 1000, Effects: synth.DefaultEffects(),
		Types: []string{"pak_passport_2013_main", "tur_passport_2018_main", "kgz_passport_2022_main", "passport_main", "snils_front"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	settled, unsettled := 0, 0
	for i := 0; i < 12 && (settled < 4 || unsettled < 2); i++ {
		crops, err := g.Crops(ctx, i, 900, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range crops {
			ev1, rot1, _, err := reads.Read(ctx, c.Img)
			if err != nil {
				t.Fatal(err)
			}
			ev2, rot2, _, err := spares.Read(ctx, c.Img)
			if err != nil {
				t.Fatal(err)
			}
			if !classify.ZoneSettles(ev2.Zone) {
				unsettled++
				if ev2.WordsRead != ev1.WordsRead {
					t.Errorf("scene %d %s: no settling zone, words read %t by the sparing reader, %t by the other", i, c.Type, ev2.WordsRead, ev1.WordsRead)
				}
				continue
			}
			settled++
			if ev2.WordsRead || ev2.EdgeNumber || !ev1.WordsRead {
				t.Errorf("scene %d %s: settling zone, words read %t (edge number %t) by the sparing reader, %t by the other", i, c.Type, ev2.WordsRead, ev2.EdgeNumber, ev1.WordsRead)
			}
			one, err := cl.ClassifyWith(ctx, c.Img, nil, ev1)
			if err != nil {
				t.Fatal(err)
			}
			two, err := cl.ClassifyWith(ctx, c.Img, nil, ev2)
			if err != nil {
				t.Fatal(err)
			}
			if one.Type != two.Type || rot1 != rot2 {
				t.Errorf("scene %d %s: with words %s turned %v, spared %s turned %v", i, c.Type, one.Type, rot1, two.Type, rot2)
			}
		}
	}
	if settled < 4 || unsettled < 2 {
		t.Fatalf("%d crops with a settling zone and %d without: the check saw too few of either", settled, unsettled)
	}
	t.Logf("%d crops with a settling zone, %d without", settled, unsettled)
}
