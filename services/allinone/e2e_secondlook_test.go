package main

import (
	"bytes"
	"image"
	_ "image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/testutil"
)

// TestPageOfNoDocumentsIsAnsweredWhole checks the second look on real
// photographs: where the cropper cut only what the classifier calls
// not_document (the emblem of a closed passport cover, of a school
// certificate's cover held in a hand), the page is answered as when
// nothing document-like is found, the whole photograph one item and a
// document; where it cut only text-less pieces the classifier calls other
// (a car's number plate and bumper), the whole photograph is the one
// item, not_document; where a document was cut beside a not_document
// piece, both stay.
func TestPageOfNoDocumentsIsAnsweredWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("classifies real photographs")
	}
	in := startAllInOne(t, nil)
	for _, tc := range []struct {
		file  string
		whole bool
		items int
		scene bool // the whole page is a photograph of a scene: not_document
	}{
		{"AlexandrNerf-ocr-document-recognition-service/core__assets__images__1557807082_1515432371_pasport-rk.jpg", true, 1, false},
		{"plombam-univ-1/img__attestat.jpg", true, 1, false},
		{"mindee-client-lib-test-data/v1__products__license_plates__default_sample.jpg", true, 1, true},
		{"belon-creator-auto-ins-pages/img__driver-licence-78.jpg", false, 2, false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data := realFile(t, tc.file)
			cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			status, body := in.post(t, "/pipelines/run/classify?return_crops=false", "image", data)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, body)
			}
			items, _ := body["items"].([]any)
			if len(items) != tc.items {
				t.Fatalf("%d items, want %d: %v", len(items), tc.items, items)
			}
			types := map[string]bool{}
			for _, it := range items {
				doc := it.(map[string]any)["document"].(map[string]any)
				types[doc["type"].(string)] = true
				if !tc.whole {
					continue
				}
				if (doc["type"] == "not_document") != tc.scene {
					t.Errorf("answered %v", doc["type"])
				}
				want := [][2]float64{{0, 0}, {float64(cfg.Width), 0}, {0, float64(cfg.Height)}, {float64(cfg.Width), float64(cfg.Height)}}
				for i, c := range doc["coords"].([]any) {
					p := c.([]any)
					if p[0].(float64) != want[i][0] || p[1].(float64) != want[i][1] {
						t.Errorf("coords %v, want the whole page %v", doc["coords"], want)
						break
					}
				}
			}
			if !tc.whole && !types["not_document"] {
				t.Errorf("types %v: the piece beside the document should stay", types)
			}
		})
	}
}

// TestPieceWithinADocumentIsDropped posts the real Japanese licence
// specimen mirrored by ImageMagick and saved as a JPEG (quality 92): the
// cropper cuts the licence and, inside it, its title band, which the
// classifier calls other; the band is a part of the licence, not a
// document of its own, and the answer is the licence alone, turned
// upright (rotation 4, mirrored).
func TestPieceWithinADocumentIsDropped(t *testing.T) {
	if testing.Short() {
		t.Skip("classifies a real image")
	}
	testutil.Need(t, "convert")
	src := filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata", "document-scanner-jp", "img__driverslicense_no_bg.png")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("no shared real data: %v", err)
	}
	dir := t.TempDir()
	testutil.Run(t, dir, "convert", src, "-flop", "-quality", "92", "mirrored.jpg")
	data, err := os.ReadFile(filepath.Join(dir, "mirrored.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/classify?return_crops=false", "image", data)
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, body)
	}
	items, _ := body["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("%d items, want the licence alone: %v", len(items), items)
	}
	doc := items[0].(map[string]any)["document"].(map[string]any)
	if doc["type"] != "driver_license_japan" || doc["rotation"] != float64(4) {
		t.Errorf("answered %v at rotation %v, want driver_license_japan at 4", doc["type"], doc["rotation"])
	}
}

// TestBlankPageIsSurelyEmpty: a page that prints nothing, as a PDF's blank
// page renders (pure white), is empty and sure of it; docnet alone gave
// it 0.24, in the unsure band, and routed every blank page to review.
func TestBlankPageIsSurelyEmpty(t *testing.T) {
	in := startAllInOne(t, nil)
	white := image.NewRGBA(image.Rect(0, 0, 1240, 1754))
	for i := range white.Pix {
		white.Pix[i] = 255
	}
	status, body := in.post(t, "/pipelines/run/classify?return_crops=false", "image", encodeJPEG(t, white, 90))
	items, _ := body["items"].([]any)
	if status != http.StatusOK || len(items) != 1 {
		t.Fatalf("%d %v", status, body)
	}
	doc := items[0].(map[string]any)["document"].(map[string]any)
	if c, _ := doc["confidence"].(float64); doc["type"] != "empty" || c < 0.6 {
		t.Errorf("blank page: %v %v, want empty above 0.6", doc["type"], doc["confidence"])
	}
}
