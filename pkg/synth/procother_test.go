package synth

import (
	"encoding/json"
	"testing"
)

// layoutKey is a procedural template as JSON: two equal keys are two
// equal layouts.
func layoutKey(t *testing.T, tpl *Template) string {
	t.Helper()
	b, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The procedural other must keep varying: every seed its own layout, the
// same seed the same layout, shapes from cards to pages and receipts, and
// a spread of scripts, element kinds and colours. Each case fails when
// the generator collapses towards a closed set of layouts again.
func TestProceduralOtherVaries(t *testing.T) {
	const n = 300
	tpls := make([]*Template, n)
	for i := range tpls {
		tpls[i] = ProceduralOther(NewRand(7, uint64(i)))
	}
	cases := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"same seed, same layout", func(t *testing.T) {
			for i := 0; i < 20; i++ {
				if layoutKey(t, tpls[i]) != layoutKey(t, ProceduralOther(NewRand(7, uint64(i)))) {
					t.Fatalf("seed %d drew two layouts", i)
				}
			}
		}},
		{"every seed its own layout", func(t *testing.T) {
			seen := map[string]int{}
			for i, tpl := range tpls {
				k := layoutKey(t, tpl)
				if j, ok := seen[k]; ok {
					t.Fatalf("seeds %d and %d drew the same layout", j, i)
				}
				seen[k] = i
			}
		}},
		{"shapes cover cards, pages, landscape and long receipts", func(t *testing.T) {
			var card, portraitCard, page, landscape, long int
			for _, tpl := range tpls {
				w, h := tpl.SizeMM[0], tpl.SizeMM[1]
				ar := w / h
				switch {
				case w < 95 && ar > 1.4 && ar < 1.8:
					card++
				case h < 95 && ar < 0.72:
					portraitCard++
				case w > 190 && ar > 0.65 && ar < 0.8:
					page++
				case w > 250 && ar > 1.2:
					landscape++
				case ar < 0.55:
					long++
				}
			}
			for name, c := range map[string]int{"card": card, "portrait card": portraitCard, "page": page, "landscape page": landscape, "receipt or screen": long} {
				if c < n/60 {
					t.Errorf("%s: %d of %d layouts", name, c, n)
				}
			}
		}},
		{"element kinds, fonts and paper vary", func(t *testing.T) {
			kinds, fonts, papers, counts := map[string]int{}, map[string]bool{}, map[string]bool{}, map[int]bool{}
			for _, tpl := range tpls {
				papers[tpl.Paper] = true
				counts[len(tpl.Elements)] = true
				for _, e := range tpl.Elements {
					kinds[e.Kind]++
					if e.Font != "" {
						fonts[e.Font] = true
					}
				}
			}
			for _, k := range []string{"text", "field", "para", "table", "photo", "stamp", "signature", "emblem", "qr", "barcode", "rect", "line", "lines", "mrz", "chip"} {
				if kinds[k] == 0 {
					t.Errorf("no layout draws a %s", k)
				}
			}
			for _, f := range []string{"arm", "geor", "arab", "deva", "jp", "mono", "hand"} {
				if !fonts[f] {
					t.Errorf("no layout uses the %s font", f)
				}
			}
			if len(papers) < n/3 {
				t.Errorf("%d paper colours over %d layouts", len(papers), n)
			}
			if len(counts) < 20 {
				t.Errorf("%d distinct element counts over %d layouts", len(counts), n)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// Rendering the other type draws both procedural and fixed layouts, each
// an upright special document of the drawn size.
func TestRenderOtherMixesProcedural(t *testing.T) {
	g, err := New(Config{Seed: 3, Types: []string{"other"}})
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[[2]int]bool{}
	for i := 0; i < 40; i++ {
		d, err := g.RenderType("other", 3, i)
		if err != nil {
			t.Fatal(err)
		}
		if d.Type != "other" || !d.Special {
			t.Fatalf("instance %d: type %q special %v", i, d.Type, d.Special)
		}
		sizes[[2]int{d.Img.Rect.Dx(), d.Img.Rect.Dy()}] = true
	}
	// 13 fixed layouts give at most 13 sizes; the procedural ones add more.
	if len(sizes) < 20 {
		t.Errorf("40 other instances in %d sizes", len(sizes))
	}
}
