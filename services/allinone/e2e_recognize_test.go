package main

import (
	"context"
	"fmt"
	"image"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"docsuite/pkg/synth"
)

// TestRecognizePassport sends a scan of a factory passport main spread to
// /pipelines/run/recognize as an already classified document
// (mode=recognize_only) and to the hosted /recognize, and checks the
// answer's shape, the fields the machine-readable zone settles, and the
// crop: absent by default, the page itself (on which the fields' coords
// lie) with return_crops=true.
func TestRecognizePassport(t *testing.T) {
	up, truth := factoryScan(t, "passport_main", 0)
	scan := encodePNG(t, up)
	in := startAllInOne(t, nil)
	for _, tc := range []struct {
		path     string
		wantCrop bool
	}{
		{"/pipelines/run/recognize?mode=recognize_only&doc_type=passport_main", false},
		{"/recognize?token=any&mode=recognize_only&doc_type=passport_main&return_crops=true", true},
	} {
		path := tc.path
		status, body := in.post(t, path, "image", scan)
		items, _ := body["items"].([]any)
		if status != http.StatusOK || len(items) != 1 || body["docs_count"] != 1.0 {
			t.Fatalf("%s: %d %v", path, status, body)
		}
		item := items[0].(map[string]any)
		fields, _ := item["fields"].(map[string]any)
		if item["doc_type"] != "passport_main" || item["confidence"] != 1.0 {
			t.Errorf("%s: item %v", path, item)
		}
		for _, f := range []string{"mrz_1", "mrz_2", "series_and_number", "date_of_birth", "date_of_issue", "subdivision_code", "page_number"} {
			fv, _ := fields[f].(map[string]any)
			if fv["text"] != truth[f] {
				t.Errorf("%s: %s = %v, want %q", path, f, fv["text"], truth[f])
			}
			c, _ := fv["confidence"].(float64)
			coords, _ := fv["coords"].([]any)
			if c <= 0 || c > 1 || len(coords) != 4 {
				t.Errorf("%s: %s confidence %v coords %v", path, f, fv["confidence"], fv["coords"])
			}
		}
		uri, hasCrop := item["crop"].(string)
		if hasCrop != tc.wantCrop {
			t.Errorf("%s: crop present %v, want %v", path, hasCrop, tc.wantCrop)
			continue
		}
		if !hasCrop {
			continue
		}
		crop := decodeCrop(t, uri)
		if cb, ub := crop.Bounds(), up.Bounds(); cb.Dx() != ub.Dx() || cb.Dy() != ub.Dy() {
			t.Errorf("%s: crop %dx%d, want the page's %dx%d", path, cb.Dx(), cb.Dy(), ub.Dx(), ub.Dy())
		}
	}
}

// TestRecognizeOnlyKeepsThePagesApart sends a PDF of three factory passport
// scans, one a page, as already classified documents: the pages are read
// side by side, and each item must carry its own page's number and fields,
// in the pages' order.
func TestRecognizeOnlyKeepsThePagesApart(t *testing.T) {
	const pages = 3
	var jpegs [][]byte
	var sizes [][2]int
	var want []string
	for i := range pages {
		up, truth := factoryScan(t, "passport_main", i)
		b := up.Bounds()
		jpegs = append(jpegs, encodeJPEG(t, up, 92))
		sizes = append(sizes, [2]int{b.Dx(), b.Dy()})
		want = append(want, truth["series_and_number"])
	}
	pdf, err := synth.BuildPDF(jpegs, sizes, 200)
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/recognize?mode=recognize_only&doc_type=passport_main", "image", pdf)
	items, _ := body["items"].([]any)
	if status != http.StatusOK || len(items) != pages || body["pages_count"] != float64(pages) {
		t.Fatalf("%d, %d items: %v", status, len(items), body)
	}
	for i, it := range items {
		item := it.(map[string]any)
		fields, _ := item["fields"].(map[string]any)
		sn, _ := fields["series_and_number"].(map[string]any)
		if item["page"] != float64(i+1) || sn["text"] != want[i] {
			t.Errorf("item %d: page %v, series and number %v, want page %d, %q", i, item["page"], sn["text"], i+1, want[i])
		}
	}
}

// factoryScan is a clean scan of the factory's document of type typ
// (seed 7, scene i), turned upright, and its truth.
func factoryScan(t *testing.T, typ string, i int) (image.Image, map[string]string) {
	t.Helper()
	g, err := synth.New(synth.Config{Seed: 7, Types: []string{typ}, MinDocs: 1, MaxDocs: 1, ScanProb: 1})
	if err != nil {
		t.Fatal(err)
	}
	crops, err := g.Crops(context.Background(), i, 1600, 0)
	if err != nil || len(crops) != 1 {
		t.Fatalf("factory: %d crops, %v", len(crops), err)
	}
	up, err := synth.Upright(crops[0].Img, crops[0].Rotation)
	if err != nil {
		t.Fatal(err)
	}
	return up, crops[0].Fields
}

// TestRecognizeAnswerOverTheBusLimit asks for the crop of a 7 MB photo of
// noise (a busy 12-megapixel picture): the answer, over NATS's 8 MB
// payload limit, comes back whole through the object store, where it was
// lost and the client waited out PIPELINE_TIMEOUT for a 503.
func TestRecognizeAnswerOverTheBusLimit(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	photo := encodeJPEG(t, img, 75)
	in := startAllInOne(t, map[string]string{"PIPELINE_TIMEOUT": "30"})
	start := time.Now()
	status, body := in.post(t, "/pipelines/run/recognize?mode=recognize_only&doc_type=other&return_crops=true", "image", photo)
	items, _ := body["items"].([]any)
	if status != http.StatusOK || len(items) != 1 {
		t.Fatalf("%d after %v: %v", status, time.Since(start).Round(time.Second), body["message"])
	}
	uri, _ := items[0].(map[string]any)["crop"].(string)
	if len(uri) < 8<<20 {
		t.Fatalf("crop of %d bytes: the answer is not over the bus's limit, the test proves nothing", len(uri))
	}
	if b := decodeCrop(t, uri).Bounds(); b.Dx() != 4000 || b.Dy() != 3000 {
		t.Errorf("crop %dx%d, want the page's 4000x3000", b.Dx(), b.Dy())
	}
}

// TestRecognizeDocTypePicksWhatClassifyPicks: doc_type narrows recognize's
// classification as it narrows classify's, so the same request picks the
// same documents on both methods. Handwritten residence pages asked for
// as passport_registration were classified without the list as
// _handwritten and dropped, while classify with the list answered them.
func TestRecognizeDocTypePicksWhatClassifyPicks(t *testing.T) {
	in := startAllInOne(t, nil)
	const q = "?doc_type=passport_registration&return_crops=false"
	for i := 0; i < 2; i++ {
		up, _ := factoryScan(t, "passport_registration_handwritten", i)
		scan := encodePNG(t, up)
		_, cls := in.post(t, "/pipelines/run/classify"+q, "image", scan)
		status, rec := in.post(t, "/pipelines/run/recognize"+q, "image", scan)
		if status != http.StatusOK {
			t.Fatalf("scan %d: recognize %d %v", i, status, rec)
		}
		var want []string
		clsItems, _ := cls["items"].([]any)
		for _, it := range clsItems {
			doc := it.(map[string]any)["document"].(map[string]any)
			if doc["type"] == "passport_registration" {
				want = append(want, fmt.Sprint(doc["page"], doc["coords"]))
			}
		}
		var got []string
		recItems, _ := rec["items"].([]any)
		for _, it := range recItems {
			m := it.(map[string]any)
			got = append(got, fmt.Sprint(m["page"], m["doc_coords"]))
		}
		if len(want) == 0 {
			t.Errorf("scan %d: classify with the list found no residence page: %v", i, cls)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("scan %d: recognize listed %v, classify classified %v", i, got, want)
		}
	}
}
