package gateway

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"docsuite/pkg/pipeline"
)

// TestOperationIDs: every operation has an operationId, unique in the
// document, so that a generated client's method names are stable.
func TestOperationIDs(t *testing.T) {
	seen := map[string]string{}
	for p, item := range OpenAPI()["paths"].(obj) {
		for m, op := range item.(obj) {
			id, _ := op.(obj)["operationId"].(string)
			if id == "" {
				t.Errorf("%s %s has no operationId", m, p)
			} else if other, dup := seen[id]; dup {
				t.Errorf("%s %s: operationId %s already names %s", m, p, id, other)
			}
			seen[id] = m + " " + p
		}
	}
}

// TestResponsesTypedForClients: the answers a client reads have a schema,
// and a method's 200 is anyOf its body and AsyncAccepted: the accept body
// ({task_id, items: [], counts 0}) is also a valid classify or recognize
// body, so oneOf (exactly one) rejected every async accept.
func TestResponsesTypedForClients(t *testing.T) {
	doc := OpenAPI()
	for _, p := range []string{"/pipelines/run/classify", "/pipelines/run/recognize", "/pipelines/run/fraud", "/pipelines/run/fulltext", "/classify", "/recognize"} {
		s, _ := dig(doc, "paths", p, "post", "responses", "200", "content", "application/json", "schema").(obj)
		if _, ok := s["anyOf"]; !ok || s["oneOf"] != nil {
			t.Errorf("%s 200: schema %v, want anyOf", p, s)
		}
	}
	for _, r := range [][]string{{"/result/{task_id}", "get", "200"}, {"/result/{task_id}", "get", "202"},
		{"/healthcheck", "get", "200"}, {"/healthcheck", "get", "503"}, {"/healthcheck", "head", "503"}} {
		if dig(doc, "paths", r[0], r[1], "responses", r[2], "content", "application/json", "schema") == nil {
			t.Errorf("%s %s %s: no application/json schema", r[1], r[0], r[2])
		}
	}
}

// TestRequiredMatchesJSON pins the schemas' required lists to the structs
// the service marshals: a field always written is required, and a
// required field is never left out (fake_reasons' editor was required by
// the document and omitted when empty).
func TestRequiredMatchesJSON(t *testing.T) {
	schemas := OpenAPI()["components"].(obj)["schemas"].(obj)
	fakeReason, _ := dig(schemas, "ClassifyResponse", "properties", "fake_reasons", "items").(obj)
	pending, _ := schemas["Pending"].(obj)["allOf"].([]obj)
	for _, c := range []struct {
		name   string
		v      any
		schema any
	}{
		{"Item", pipeline.Item{}, schemas["Item"]},
		{"Item.document", pipeline.Document{}, dig(schemas, "Item", "properties", "document")},
		{"fake_reasons[]", pipeline.FakeReason{}, fakeReason},
		{"Pending", pendingBody{}, pending[1]},
		{"Health", healthBody{}, schemas["Health"]},
	} {
		s, _ := c.schema.(obj)
		required, _ := s["required"].([]string)
		always, sometimes := jsonFields(reflect.TypeOf(c.v))
		for _, f := range always {
			if !slices.Contains(required, f) {
				t.Errorf("%s: %s is always sent but not required", c.name, f)
			}
		}
		for _, f := range required {
			if !slices.Contains(always, f) {
				t.Errorf("%s: %s is required but the answer may leave it out (sometimes: %v)", c.name, f, sometimes)
			}
		}
	}
}

// jsonFields lists a struct's own JSON keys (embedded structs' keys not
// included): those always written and those omitempty.
func jsonFields(ty reflect.Type) (always, sometimes []string) {
	for i := 0; i < ty.NumField(); i++ {
		f := ty.Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous || tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		if strings.Contains(opts, "omitempty") {
			sometimes = append(sometimes, name)
		} else {
			always = append(always, name)
		}
	}
	return always, sometimes
}
