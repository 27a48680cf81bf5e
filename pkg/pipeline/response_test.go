package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"docsuite/pkg/fakecheck"
)

// TestFakeReasonSendsEmptyEditor: a reason that names no editor (a PDF's
// ModDate after its CreationDate) carries "editor": "" in the answer, as
// the OpenAPI document's required list says; it used to be left out.
func TestFakeReasonSendsEmptyEditor(t *testing.T) {
	r := NewClassifyResponse("0123456789abcdef0123456789abcdef", nil)
	r.SetFake(fakecheck.Result{Reasons: []fakecheck.Reason{{Source: "pdf_info", Field: "ModDate", Value: "after creation"}}})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"editor":""`) {
		t.Errorf("reason without its editor key: %s", b)
	}
}
