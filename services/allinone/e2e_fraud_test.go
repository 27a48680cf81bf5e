package main

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/synth/tamper"
	"docsuite/pkg/testutil"
)

// TestFraudFindsForgeries sends factory documents through
// /pipelines/run/fraud: an untouched photo comes back clean, one with a
// region copied onto itself and one re-saved by an editor come back
// suspicious with the right sign, the copy where it was made. Where the
// shared real data is present it does the same with a real passport scan
// (the "done when"), with the request's defaults.
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
			if n := expectFraud(t, in, s.JPEG, c.verdict, c.sign, s.Box, s.Source); n != 1 {
				t.Errorf("%d documents, want 1", n)
			}
		})
	}
	t.Run("real scan", func(t *testing.T) { realScanForgeries(t, in) })
}

// realScanForgeries forges a real scan of a Russian passport spread
// (qualityBase, 1523x2072) three ways and expects each forgery found
// where it was made, and the untouched scan clean.
func realScanForgeries(t *testing.T, in *instance) {
	data := realFile(t, qualityBase)
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "edited.jpg"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, dir, "exiftool", "-q", "-overwrite_original", "-Software=Adobe Photoshop 2024", "edited.jpg")
	resaved, err := os.ReadFile(filepath.Join(dir, "edited.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	// The date-of-birth line onto the lower page's blank foot, and the
	// issuing office's stamp onto the photo page's names, each saved at
	// quality 92 as an editor would.
	dob, dobTo := image.Rect(685, 1326, 1218, 1471), image.Pt(121, 1699)
	stamp, stampTo := image.Rect(506, 466, 876, 804), image.Pt(1000, 1150)
	cases := []struct {
		name, verdict, sign string
		data                []byte
		copy, source        image.Rectangle // the sign must overlap one; empty: anywhere
	}{
		{"untouched", "clean", "", data, image.Rectangle{}, image.Rectangle{}},
		{"date line copied", "suspicious", "copy_move", testutil.CopyRegionJPEG(t, img, dob, dobTo), dob.Add(dobTo.Sub(dob.Min)), dob},
		{"stamp copied", "suspicious", "copy_move", testutil.CopyRegionJPEG(t, img, stamp, stampTo), stamp.Add(stampTo.Sub(stamp.Min)), stamp},
		{"re-saved by an editor", "suspicious", "editor_metadata", resaved, image.Rectangle{}, image.Rectangle{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectFraud(t, in, c.data, c.verdict, c.sign, c.copy, c.source)
		})
	}
}

// expectFraud posts data to /pipelines/run/fraud and expects one of the
// documents found to have the verdict (every document when it is clean)
// with a sign of the given type; a copy_move sign must overlap the copy
// or its source. It returns how many documents were found.
func expectFraud(t *testing.T, in *instance, data []byte, verdict, sign string, copied, source image.Rectangle) int {
	t.Helper()
	status, body := in.post(t, "/pipelines/run/fraud", "image", data)
	if status != http.StatusOK {
		t.Fatalf("fraud: %d %v", status, body)
	}
	if _, ok := body["fake"].(bool); !ok {
		t.Errorf("fake (check_fake's result) missing: %v", body["fake"])
	}
	items, _ := body["items"].([]any)
	if len(items) == 0 {
		t.Fatalf("no document found: %v", body)
	}
	var seen []any
	for _, it := range items {
		doc, _ := it.(map[string]any)["document"].(map[string]any)
		fr, _ := it.(map[string]any)["fraud"].(map[string]any)
		seen = append(seen, map[string]any{"type": doc["type"], "coords": doc["coords"], "fraud": fr})
		if sign == "" {
			if fr["verdict"] != verdict {
				t.Fatalf("verdict %v (score %v, signs %v) on the %v at %v, want %s", fr["verdict"], fr["score"], fr["signs"], doc["type"], doc["coords"], verdict)
			}
			continue
		}
		if fr["verdict"] != verdict {
			continue
		}
		signs, _ := fr["signs"].([]any)
		for _, v := range signs {
			sg := v.(map[string]any)
			if sg["type"] != sign {
				continue
			}
			if sign == "copy_move" && !overlapsEither(sg["coords"].([]any), copied, source) {
				t.Fatalf("copy_move at %v, the copy was made from %v to %v", sg["coords"], source, copied)
			}
			t.Logf("%s %v at %v: %v", sign, sg["confidence"], sg["coords"], sg["message"])
			return len(items)
		}
	}
	if sign != "" {
		t.Fatalf("no %s %s sign; documents: %v", verdict, sign, seen)
	}
	return len(items)
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
