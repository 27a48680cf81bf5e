package synth

import (
	"fmt"
	"slices"
	"testing"
)

// TestFormsDrawn checks that a type with other official forms draws them
// on about form_prob of its instances, with their own fields: the
// 2002-2012 INN certificate (form 09-1-2) alone prints the tax office's
// code in boxed cells.
func TestFormsDrawn(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 11})
	tpl, ok := g.Renderer().Catalogue().Get("inn_organisation")
	if !ok || len(tpl.Forms) == 0 {
		t.Fatalf("inn_organisation has no other forms: %+v", tpl)
	}
	const n = 60
	old := 0
	for i := 0; i < n; i++ {
		d, err := g.RenderType("inn_organisation", 11, i)
		if err != nil {
			t.Fatal(err)
		}
		if d.Type != "inn_organisation" {
			t.Fatalf("instance %d is labelled %q", i, d.Type)
		}
		if d.Fields["inn_kpp"] == "" {
			t.Errorf("instance %d has no INN/KPP: %v", i, d.Fields)
		}
		if code, ok := d.Fields["tax_office_code"]; ok {
			old++
			if len(code) != 4 {
				t.Errorf("instance %d: tax office code %q, want 4 digits", i, code)
			}
		}
	}
	// form_prob is 0.4: 24 of 60 expected; 10..38 holds with
	// probability above 0.999.
	if old < 10 || old > 38 {
		t.Fatalf("%d of %d instances on the old form, want about %.0f", old, n, tpl.FormProb*n)
	}
}

// TestValueFontsPickOnePerInstance checks that the fields of one
// instance share one typeface picked among the template's value_fonts,
// and that instances differ.
func TestValueFontsPickOnePerInstance(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 1})
	tpl, ok := g.Renderer().Catalogue().Get("passport_main")
	if !ok || len(tpl.ValueFonts) < 2 {
		t.Fatalf("passport_main lists no value fonts: %v", tpl.ValueFonts)
	}
	value := &Element{Kind: "field", Font: "value"}
	fixed := &Element{Kind: "field", Font: "mono-bold"}
	seen := map[string]bool{}
	for i := 0; i < 60; i++ {
		c := &drawCtx{t: tpl}
		first := c.fontOf(value, fmt.Sprintf("ОТДЕЛОМ УФМС РОССИИ %d", i))
		if !slices.Contains(tpl.ValueFonts, first) {
			t.Fatalf("picked %q, not among %v", first, tpl.ValueFonts)
		}
		if got := c.fontOf(value, "ИВАНОВ"); got != first {
			t.Fatalf("instance %d: second value in %q, first in %q", i, got, first)
		}
		if got := c.fontOf(fixed, "1234 567890"); got != "mono-bold" {
			t.Fatalf("a field with its own font drew in %q", got)
		}
		seen[first] = true
	}
	if len(seen) < 4 {
		t.Fatalf("60 instances used %d typefaces (%v), want most of %v", len(seen), seen, tpl.ValueFonts)
	}
}
