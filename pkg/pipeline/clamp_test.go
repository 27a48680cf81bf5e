package pipeline

import (
	"testing"

	"docsuite/pkg/stages"
)

// TestClampCoords: every item's corners end inside its own page, whatever
// the cropper placed beyond the frame; a page of unknown size is left.
func TestClampCoords(t *testing.T) {
	pages := []stages.CropReply{{PageWidth: 540, PageHeight: 960}, {PageWidth: 100, PageHeight: 50}, {}}
	items := []Item{
		{Document: Document{Page: 1, Coords: [][2]int{{96, 376}, {442, 548}, {-6, 687}, {292, 861}}}},
		{Document: Document{Page: 2, Coords: [][2]int{{-3, -4}, {120, 2}, {5, 60}, {101, 50}}}},
		{Document: Document{Page: 3, Coords: [][2]int{{-1, -1}, {1, 1}, {1, 1}, {1, 1}}}},
	}
	clampCoords(items, pages)
	want := [][][2]int{
		{{96, 376}, {442, 548}, {0, 687}, {292, 861}},
		{{0, 0}, {100, 2}, {5, 50}, {100, 50}},
		{{-1, -1}, {1, 1}, {1, 1}, {1, 1}},
	}
	for i, it := range items {
		for j, c := range it.Document.Coords {
			if c != want[i][j] {
				t.Errorf("item %d corner %d: %v, want %v", i, j, c, want[i][j])
			}
		}
	}
}
