package pipeline

import (
	"reflect"
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := junkPages(tc.pages, tc.items); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("junk pages %v, want %v", got, tc.want)
			}
		})
	}
}
