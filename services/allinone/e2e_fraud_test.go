package main

import (
	"context"
	"image"
	"net/http"
	"testing"

	"docsuite/pkg/synth/tamper"
	"docsuite/pkg/testutil"
)

// TestFraudFindsForgeries sends factory documents through
// /pipelines/run/fraud: an untouched photo comes back clean, one with a
// region copied onto itself and one re-saved by an editor come back
// suspicious with the right sign, the copy where it was made.
func TestFraudFindsForgeries(t *testing.T) {
	testutil.Need(t, "exiftool")
	mk, err := tamper.New(5, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	cases := []struct {
		kind    string
		verdict string
		sign    string
	}{
		{tamper.Clean, "clean", ""},
		{tamper.CopyMove, "suspicious", "copy_move"},
		{tamper.EditorResave, "suspicious", "editor_metadata"},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			s, err := mk.Make(context.Background(), 0, c.kind)
			if err != nil {
				t.Fatal(err)
			}
			status, body := in.post(t, "/pipelines/run/fraud", "image", s.JPEG)
			if status != http.StatusOK {
				t.Fatalf("fraud: %d %v", status, body)
			}
			if _, ok := body["fake"].(bool); !ok {
				t.Errorf("fake (check_fake's result) missing: %v", body["fake"])
			}
			items, _ := body["items"].([]any)
			if len(items) != 1 {
				t.Fatalf("%d documents, want 1: %v", len(items), body)
			}
			fr, _ := items[0].(map[string]any)["fraud"].(map[string]any)
			if fr["verdict"] != c.verdict {
				t.Fatalf("verdict %v (score %v, signs %v), want %s", fr["verdict"], fr["score"], fr["signs"], c.verdict)
			}
			if c.sign == "" {
				return
			}
			signs, _ := fr["signs"].([]any)
			for _, v := range signs {
				sg := v.(map[string]any)
				if sg["type"] != c.sign {
					continue
				}
				if c.sign == "copy_move" && !overlapsEither(sg["coords"].([]any), s.Box, s.Source) {
					t.Fatalf("copy_move at %v, the copy was made from %v to %v", sg["coords"], s.Source, s.Box)
				}
				return
			}
			t.Fatalf("no %s sign: %v", c.sign, signs)
		})
	}
}

// overlapsEither reports whether the sign's corners enclose a box that
// overlaps a or b.
func overlapsEither(coords []any, a, b image.Rectangle) bool {
	pt := func(i int) image.Point {
		c := coords[i].([]any)
		return image.Pt(int(c[0].(float64)), int(c[1].(float64)))
	}
	r := image.Rectangle{Min: pt(0), Max: pt(3)}.Canon()
	return r.Overlaps(a) || r.Overlaps(b)
}
