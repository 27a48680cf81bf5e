package pipeline

import (
	"reflect"
	"strings"
	"testing"

	"docsuite/pkg/stages"
)

// TestJunkPages checks which pages get the second look: those whose every
// cut document was called not_document, never a page answered whole, a
// page with a document among its pieces, or a page with nothing on it.
func TestJunkPages(t *testing.T) {
	cut := func(n int) stages.CropReply { return stages.CropReply{Docs: make([]stages.Found, n)} }
	whole := stages.CropReply{Docs: []stages.Found{{WholePage: true}}}
	item := func(page int, typ string) Item { return Item{Document: Document{Page: page, Type: typ}} }
	lined := func(page int, typ string, lines int) Item {
		it := item(page, typ)
		it.TextLines = &lines
		return it
	}
	for _, tc := range []struct {
		name  string
		pages []stages.CropReply
		items []Item
		want  []int
	}{
		{"an emblem cut from a cover", []stages.CropReply{cut(1)}, []Item{item(1, "not_document")}, []int{0}},
		{"two pieces, both junk", []stages.CropReply{cut(2)}, []Item{item(1, "not_document"), item(1, "not_document")}, []int{0}},
		{"a photo beside a card", []stages.CropReply{cut(2)}, []Item{item(1, "not_document"), item(1, "bank_card")}, nil},
		{"a page answered whole", []stages.CropReply{whole}, []Item{item(1, "not_document")}, nil},
		{"a document outside the catalogue", []stages.CropReply{cut(1)}, []Item{item(1, "other")}, nil},
		{"a blank sheet cut out", []stages.CropReply{cut(1)}, []Item{item(1, "empty")}, nil},
		{"only the second page", []stages.CropReply{cut(1), cut(1), cut(1)},
			[]Item{item(1, "passport_main"), item(2, "not_document"), item(3, "snils_front")}, []int{1}},
		{"a page without documents", []stages.CropReply{{}}, nil, nil},
		{"pieces of a photograph without text", []stages.CropReply{cut(2)},
			[]Item{lined(1, "other", 0), lined(1, "not_document", 0)}, []int{0}},
		{"a document outside the catalogue, lines found", []stages.CropReply{cut(1)}, []Item{lined(1, "other", 3)}, nil},
		{"a text-less card beside a passport", []stages.CropReply{cut(2)},
			[]Item{lined(1, "other", 0), lined(1, "passport_main", 0)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := junkPages(tc.pages, tc.items); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("junk pages %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFragmentPages checks which pages are looked at again for being cut
// into fragments: every piece under 5 % of the page and answered no
// catalogue type (the pieces cropnet cut from a licence filling its
// picture, turned a quarter), never a page with a catalogue type or a
// large piece among them, nor a page answered whole.
func TestFragmentPages(t *testing.T) {
	page := func(n int) stages.CropReply {
		return stages.CropReply{PageWidth: 633, PageHeight: 1010, Docs: make([]stages.Found, n)}
	}
	whole := stages.CropReply{PageWidth: 633, PageHeight: 1010, Docs: []stages.Found{{WholePage: true}}}
	item := func(pg int, typ string, x0, y0, x1, y1 int) Item {
		return Item{Document: Document{Page: pg, Type: typ, Coords: [][2]int{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}}}
	}
	licence := []Item{item(1, "not_document", 0, 51, 230, 185), item(1, "other", 532, 820, 575, 954)}
	for _, tc := range []struct {
		name  string
		pages []stages.CropReply
		items []Item
		want  []int
	}{
		{"a licence cut into two fragments", []stages.CropReply{page(2)}, licence, []int{0}},
		{"the same page answered whole", []stages.CropReply{whole}, licence[:1], nil},
		{"a small card found", []stages.CropReply{page(1)}, []Item{item(1, "bank_card", 10, 10, 150, 100)}, nil},
		{"a fragment beside a card", []stages.CropReply{page(2)}, []Item{licence[0], item(1, "bank_card", 300, 300, 400, 360)}, nil},
		// 6 % of the page: a document outside the catalogue, not a fragment.
		{"a large other", []stages.CropReply{page(1)}, []Item{item(1, "other", 0, 0, 240, 160)}, nil},
		{"the second page only", []stages.CropReply{page(1), page(2)},
			[]Item{item(1, "passport_main", 0, 0, 600, 900), item(2, "not_document", 0, 51, 230, 185), item(2, "empty", 10, 10, 50, 50)}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fragmentPages(tc.pages, tc.items); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("fragment pages %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReplaceJunk checks what the second look keeps: a whole page that is
// a document replaces its page's pieces; a whole page that is no document
// either (a photograph alone on a table, the table answered empty) leaves
// the pieces; other pages are untouched.
func TestReplaceJunk(t *testing.T) {
	item := func(page int, typ, key string) Item {
		return Item{Document: Document{Page: page, Type: typ}, CropKey: key}
	}
	keys := func(items []Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.CropKey)
		}
		return out
	}
	items := []Item{item(1, "not_document", "p0_d0"), item(1, "not_document", "p0_d1"),
		item(2, "not_document", "p1_d0"), item(3, "snils_front", "p2_d0"), item(4, "other", "p3_d0"), item(4, "other", "p3_d1")}
	for _, tc := range []struct {
		name  string
		again []Item
		want  []string
	}{
		{"a cover", []Item{item(1, "other", "whole/p0_d0")}, []string{"p1_d0", "p2_d0", "p3_d0", "p3_d1", "whole/p0_d0"}},
		{"a photograph on a table", []Item{item(2, "empty", "whole/p1_d0")}, []string{"p0_d0", "p0_d1", "p1_d0", "p2_d0", "p3_d0", "p3_d1"}},
		{"a photograph on a page", []Item{item(2, "not_document", "whole/p1_d0")}, []string{"p0_d0", "p0_d1", "p1_d0", "p2_d0", "p3_d0", "p3_d1"}},
		{"both", []Item{item(1, "passport_main", "whole/p0_d0"), item(2, "empty", "whole/p1_d0")},
			[]string{"p1_d0", "p2_d0", "p3_d0", "p3_d1", "whole/p0_d0"}},
		// Text-less pieces of a photograph of a scene (an eagle's head
		// and its wing answered other): the photograph is the answer.
		{"a scene cut in pieces", []Item{item(4, "not_document", "whole/p3_d0")}, []string{"p0_d0", "p0_d1", "p1_d0", "p2_d0", "whole/p3_d0"}},
		// Text-less pieces on a page answered other whole: small
		// documents on a table can show no line; they stay.
		{"text-less pieces of a document", []Item{item(4, "other", "whole/p3_d0")}, []string{"p0_d0", "p0_d1", "p1_d0", "p2_d0", "p3_d0", "p3_d1"}},
		// Fragments of a licence (page 4's pieces, other): the whole page
		// is the licence, though its pieces held a text-less other.
		{"fragments of a licence", []Item{item(4, "driver_license_2011_back", "whole/p3_d0")}, []string{"p0_d0", "p0_d1", "p1_d0", "p2_d0", "whole/p3_d0"}},
		// A small document outside the catalogue: the whole page is no
		// catalogue type, so the piece stays.
		{"a small other", []Item{item(4, "other", "whole/p3_d0")}, []string{"p0_d0", "p0_d1", "p1_d0", "p2_d0", "p3_d0", "p3_d1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			looks := map[int]look{1: lookJunk, 2: lookJunk, 4: lookJunk}
			if strings.HasPrefix(tc.name, "fragments") || tc.name == "a small other" {
				looks[4] = lookFragments
			}
			if got := keys(replaceJunk(items, tc.again, looks)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("items %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDropTextless checks that a text-less other (a piece of wallpaper or
// of a hand cut as a document) goes from a page where a document was
// found, and stays where nothing else is, where lines were found on it, or
// where the text evidence was off (no line count).
func TestDropTextless(t *testing.T) {
	item := func(page int, typ string, lines int, key string) Item {
		it := Item{Document: Document{Page: page, Type: typ}, CropKey: key}
		if lines >= 0 {
			it.TextLines = &lines
		}
		return it
	}
	keys := func(items []Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.CropKey)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		items []Item
		want  []string
	}{
		{"a piece of wallpaper above a passport", []Item{item(1, "passport_main", 12, "a"), item(1, "other", 0, "b")}, []string{"a"}},
		{"a text-less other alone", []Item{item(1, "other", 0, "a")}, []string{"a"}},
		{"text-less others together", []Item{item(1, "other", 0, "a"), item(1, "other", 0, "b")}, []string{"a", "b"}},
		{"an other with lines", []Item{item(1, "snils_front", 5, "a"), item(1, "other", 3, "b")}, []string{"a", "b"}},
		{"no line count", []Item{item(1, "snils_front", -1, "a"), item(1, "other", -1, "b")}, []string{"a", "b"}},
		{"a photograph beside a card", []Item{item(1, "bank_card", 2, "a"), item(1, "not_document", 0, "b")}, []string{"a", "b"}},
		{"the document on another page", []Item{item(1, "passport_main", 12, "a"), item(2, "other", 0, "b")}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := keys(dropTextless(tc.items)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("items %v, want %v", got, tc.want)
			}
		})
	}
}
