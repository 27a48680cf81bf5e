package main

import (
	"testing"

	"docsuite/pkg/geom"
)

// TestLaterPages checks how items on the pages after a file's first are
// scored: the first item of each later page is set aside (the service
// answers every page with at least one item), further ones are spurious,
// and the labelled documents are matched on the first page.
func TestLaterPages(t *testing.T) {
	q := geom.Quad{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 0, Y: 10}, {X: 10, Y: 10}}
	other := []truthDoc{{Type: "other"}}
	tests := []struct {
		name          string
		docs          []truthDoc
		pages         [][]geom.Quad
		found, spur   int
		predictions   int
		laterSetAside int
	}{
		{"ten-page invoice, one item a page", other, [][]geom.Quad{{q}, {q}, {q}, {q}, {q}, {q}, {q}, {q}, {q}, {q}}, 1, 0, 1, 9},
		{"a later page cut in three", other, [][]geom.Quad{{q}, {q, q, q}}, 1, 2, 3, 1},
		{"first page cut in two", other, [][]geom.Quad{{q, q}, {q}}, 1, 1, 2, 1},
		{"single page, two documents found", []truthDoc{{Type: "snils_front"}, {Type: "other"}}, [][]geom.Quad{{q, q}}, 2, 0, 2, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cr := &cropResults{}
			cr.score(testCase{Path: "x/y.pdf", Docs: tc.docs}, tc.pages)
			if cr.Found != tc.found || cr.Spurious != tc.spur || cr.Predictions != tc.predictions || cr.LaterPages != tc.laterSetAside {
				t.Errorf("cropper: found %d spurious %d predictions %d later pages %d, want %d %d %d %d",
					cr.Found, cr.Spurious, cr.Predictions, cr.LaterPages, tc.found, tc.spur, tc.predictions, tc.laterSetAside)
			}
			// The service's answer lists the same items with their pages.
			var a answer
			a.Pages = len(tc.pages)
			for i, p := range tc.pages {
				for range p {
					a.Items = append(a.Items, predicted{Type: "other", Page: i + 1})
				}
			}
			r := &results{}
			r.match(testCase{Path: "x/y.pdf", Docs: tc.docs}, a)
			if r.Found != tc.found || r.Spurious != tc.spur || r.LaterPages != tc.laterSetAside {
				t.Errorf("service: found %d spurious %d later pages %d, want %d %d %d", r.Found, r.Spurious, r.LaterPages, tc.found, tc.spur, tc.laterSetAside)
			}
			if len(r.SpuriousItems) != r.Spurious {
				t.Errorf("service: %d spurious items listed, %d counted", len(r.SpuriousItems), r.Spurious)
			}
		})
	}
}
