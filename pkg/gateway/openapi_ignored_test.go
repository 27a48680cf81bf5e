package gateway

import (
	"strings"
	"testing"
)

// TestFulltextSaysWhatItIgnores: full-text OCR parses classify's query but
// answers no quality flags, no fake and no crops and reads every document
// whatever its type; its operation in the OpenAPI document says so of those
// parameters, and classify's does not.
func TestFulltextSaysWhatItIgnores(t *testing.T) {
	doc := OpenAPI()
	describe := func(path, name string) string {
		op := dig(doc, "paths", path, "post").(obj)
		for _, p := range op["parameters"].([]obj) {
			if p["name"] == name {
				d, _ := p["description"].(string)
				return d
			}
		}
		t.Fatalf("%s has no parameter %s", path, name)
		return ""
	}
	tests := []struct {
		path, name string
		ignored    bool
	}{
		{"/pipelines/run/fulltext", "check_fake", true},
		{"/pipelines/run/fulltext", "return_crops", true},
		{"/pipelines/run/fulltext", "doc_type", true},
		{"/pipelines/run/fulltext", "max_blur_score", true},
		{"/pipelines/run/fulltext", "min_filesize", true},
		{"/pipelines/run/fulltext", "simple_cropper", false},
		{"/pipelines/run/fulltext", "dpi", false},
		{"/pipelines/run/fulltext", "mode", false},
		{"/pipelines/run/classify", "check_fake", false},
		{"/pipelines/run/classify", "doc_type", false},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.name, func(t *testing.T) {
			d := describe(tc.path, tc.name)
			if got := strings.HasPrefix(d, "Accepted and ignored by fulltext"); got != tc.ignored {
				t.Errorf("description %q: says ignored %v, want %v", d, got, tc.ignored)
			}
		})
	}
}
