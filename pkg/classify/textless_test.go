package classify

import (
	"context"
	"testing"

	"docsuite/pkg/synth"
)

// TestTextless checks the gate that hands a crop's orientation to the
// picture alone: fresh factory crops of blank passport pages pass it, and
// crops of every other kind, which have text to read, do not.
func TestTextless(t *testing.T) {
	c := open(t)
	if len(c.textlessIdx) != 1 || c.head.Classes[c.textlessIdx[0]] != "passport_blank_page" {
		t.Fatalf("classes printed without text: %v", c.textlessIdx)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		types []string
		want  bool
		least float64 // the share of crops that must answer want
	}{
		{"blank passport pages", []string{"passport_blank_page"}, true, 0.8},
		{"every other type", nil, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := synth.New(synth.Config{Seed: 737373, Size: 1000, Effects: synth.DefaultEffects(), Types: tc.types})
			if err != nil {
				t.Fatal(err)
			}
			n, agree := 0, 0
			for i := 0; n < 30; i++ {
				crops, err := g.Crops(ctx, i, 256, 0.04)
				if err != nil {
					t.Fatal(err)
				}
				for _, cr := range crops {
					if cr.Type == "passport_blank_page" != tc.want {
						continue // a second document of a blank page's scene, or a blank page among the rest
					}
					out, err := c.Outputs(ctx, cr.Img)
					if err != nil {
						t.Fatal(err)
					}
					n++
					if c.Textless(out) == tc.want {
						agree++
					} else {
						t.Logf("scene %d %s: Textless %t", i, cr.Type, !tc.want)
					}
				}
			}
			if float64(agree) < tc.least*float64(n) {
				t.Errorf("%d of %d crops answer Textless %t, want at least %.0f %%", agree, n, tc.want, 100*tc.least)
			}
		})
	}
	if c.Textless(map[string][]float32{}) {
		t.Error("without the type head no crop is textless")
	}
}
