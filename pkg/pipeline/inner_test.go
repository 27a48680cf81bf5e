package pipeline

import (
	"reflect"
	"testing"
)

// TestDropInner checks which pieces are taken for parts of a document:
// those answered no catalogue type lying (nine tenths of them or more)
// within a catalogue document of their page, whichever way its corners were
// reordered upright; never a catalogue document, a piece over a document's
// edge or beside it, a piece on another page, or a piece within a document
// outside the catalogue.
func TestDropInner(t *testing.T) {
	box := func(page int, typ string, x0, y0, x1, y1 int) Item {
		return Item{Document: Document{Page: page, Type: typ, Coords: [][2]int{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}}}
	}
	// The real licence mirrored (rotation 4: corners given right to left)
	// and the title band cut out of it.
	licence := Item{Document: Document{Page: 1, Type: "driver_license_japan", Coords: [][2]int{{651, 24}, {21, 24}, {653, 404}, {21, 404}}}}
	band := Item{Document: Document{Page: 1, Type: "other", Coords: [][2]int{{401, 26}, {503, 26}, {404, 62}, {515, 56}}}}
	turned := box(1, "passport_main", 0, 0, 600, 900)
	turned.Document.Coords = [][2]int{{600, 0}, {600, 900}, {0, 0}, {0, 900}} // a quarter turn
	for _, tc := range []struct {
		name  string
		items []Item
		want  []Item
	}{
		{"the mirrored licence's title band", []Item{licence, band}, []Item{licence}},
		{"a photo cut out of a turned passport page", []Item{turned, box(1, "not_document", 40, 500, 200, 700)}, []Item{turned}},
		{"a blank piece within a card", []Item{box(1, "bank_card", 0, 0, 300, 190), box(1, "empty", 10, 10, 60, 60)}, []Item{box(1, "bank_card", 0, 0, 300, 190)}},
		{"a card lying on a form stays", []Item{box(1, "ndfl2", 0, 0, 1000, 1400), box(1, "bank_card", 100, 100, 400, 290)},
			[]Item{box(1, "ndfl2", 0, 0, 1000, 1400), box(1, "bank_card", 100, 100, 400, 290)}},
		// 80 % of the piece within the card: a document over its edge.
		{"an other over a card's edge", []Item{box(1, "bank_card", 0, 0, 300, 190), box(1, "other", 220, 50, 320, 150)},
			[]Item{box(1, "bank_card", 0, 0, 300, 190), box(1, "other", 220, 50, 320, 150)}},
		{"an other beside a card", []Item{box(1, "bank_card", 0, 0, 300, 190), box(1, "other", 400, 0, 700, 190)},
			[]Item{box(1, "bank_card", 0, 0, 300, 190), box(1, "other", 400, 0, 700, 190)}},
		{"the same place on another page", []Item{box(1, "bank_card", 0, 0, 300, 190), box(2, "other", 10, 10, 60, 60)},
			[]Item{box(1, "bank_card", 0, 0, 300, 190), box(2, "other", 10, 10, 60, 60)}},
		{"within a document outside the catalogue", []Item{box(1, "other", 0, 0, 300, 190), box(1, "not_document", 10, 10, 60, 60)},
			[]Item{box(1, "other", 0, 0, 300, 190), box(1, "not_document", 10, 10, 60, 60)}},
		{"coords missing", []Item{box(1, "bank_card", 0, 0, 300, 190), {Document: Document{Page: 1, Type: "other"}}},
			[]Item{box(1, "bank_card", 0, 0, 300, 190), {Document: Document{Page: 1, Type: "other"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dropInner(tc.items); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("kept %v, want %v", types(got), types(tc.want))
			}
		})
	}
}

// types lists the items' types, for messages.
func types(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Document.Type)
	}
	return out
}
