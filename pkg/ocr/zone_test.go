package ocr

import (
	"context"
	"image"
	"slices"
	"strings"
	"testing"

	"docsuite/pkg/crop"
	"docsuite/pkg/mrz"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/synth"
)

// TestReadDocumentsTakesTheZoneFromItsReader reads factory passport scans
// with a machine-readable zone, cut out at their quadrilateral and turned
// on the page, as the full-text method does: with the zone reader the
// page's text holds the zone's lines exactly as printed, each a line of
// the document on the page inside it, after the document's other lines,
// and no line Tesseract read on the zone is left. Read whole as a page of
// its own, the zone is one block of its lines.
func TestReadDocumentsTakesTheZoneFromItsReader(t *testing.T) {
	e, err := New(1)
	if err != nil {
		t.Skipf("tesseract not usable: %v", err)
	}
	defer e.Close()
	rt, err := onnxrt.Open(onnxrt.Options{Threads: 1})
	if err != nil {
		t.Skipf("ONNX Runtime not usable: %v", err)
	}
	defer rt.Close()
	text, err := ppocr.Open(rt, "")
	if err != nil {
		t.Skipf("text models not installed: %v", err)
	}
	defer text.Close()
	zones := mrz.NewReader(text).WithSecondReading()

	fx := synth.DefaultEffects()
	fx.Mirror = 0
	g, err := synth.New(synth.Config{Seed: 20261127, Size: 2400, Types: []string{"kz_passport_2014_main", "passport_main"},
		ScanProb: 1, Effects: fx})
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for i := 0; tested < 2 && i < 40; i++ {
		s, err := g.Scene(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		d := s.Docs[0]
		var want []string
		for _, k := range []string{"mrz_1", "mrz_2", "mrz_3"} {
			if v, ok := d.Fields[k]; ok {
				want = append(want, v)
			}
		}
		if len(want) == 0 {
			continue // this passport prints no zone
		}
		tested++
		cut, err := crop.Warp(s.Img, d.Lying)
		if err != nil {
			t.Fatal(err)
		}
		cuts := []Cut{{Quad: d.Lying, Img: cut}}
		plain, err := e.ReadDocuments(context.Background(), s.Img, cuts, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.ReadDocuments(context.Background(), s.Img, cuts, zones)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s turned %d: Tesseract alone read the zone as %q", d.Type, d.Turn, zoneText(plain))
		var mine []Line
		for _, l := range got.Lines {
			if l.Document == 1 {
				mine = append(mine, l)
			}
		}
		if len(mine) < len(want) {
			t.Fatalf("%s: %d lines on the document, want the zone's %d at least", d.Type, len(mine), len(want))
		}
		tail := mine[len(mine)-len(want):]
		area := d.Lying.FracBounds([4]float64{0, 0, 1, 1})
		for j, w := range want {
			if tail[j].Text != w {
				t.Errorf("%s: zone line %d read %q, want %q", d.Type, j+1, tail[j].Text, w)
			}
			if x, y := centre(tail[j].Coords); !image.Pt(x, y).In(area) {
				t.Errorf("%s: zone line %d at %v, outside the document %v", d.Type, j+1, tail[j].Coords, area)
			}
			if !strings.Contains(got.Text, w) {
				t.Errorf("%s: page text lacks zone line %q", d.Type, w)
			}
		}
		// The crop sent as a page of its own (a scan of the document) is
		// read whole, its zone one block of consecutive lines.
		whole, err := e.ReadZoned(context.Background(), cut, zones)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(whole.Text, strings.Join(want, "\n")) {
			t.Errorf("%s read whole: text lacks the zone %q", d.Type, strings.Join(want, "\n"))
		}
		blocks := map[int]bool{}
		for _, l := range whole.Lines {
			if slices.Contains(want, l.Text) {
				blocks[l.Block] = true
			}
		}
		if len(blocks) != 1 {
			t.Errorf("%s read whole: zone lines in blocks %v, want one", d.Type, blocks)
		}
		band := image.Rectangle{}
		for _, l := range tail {
			band = band.Union(cornersRect(l.Coords))
		}
		for _, l := range mine[:len(mine)-len(want)] {
			if x, y := centre(l.Coords); image.Pt(x, y).In(band) {
				t.Errorf("%s: Tesseract's line %q left on the zone %v", d.Type, l.Text, band)
			}
		}
	}
	if tested < 2 {
		t.Fatalf("%d passports with a zone in 40 scenes, want 2", tested)
	}
}

// zoneText is the text of the lines Tesseract read like a zone's.
func zoneText(p Page) string {
	var out []string
	for _, l := range p.Lines {
		if zoneLike([]Line{l}) {
			out = append(out, l.Text)
		}
	}
	return strings.Join(out, " / ")
}

// TestOutside keeps the words of a line that lie beside a zone's band.
func TestOutside(t *testing.T) {
	word := func(text string, x0, x1 int) Word {
		return Word{Text: text, Confidence: 0.9, Coords: [4][2]int{{x0, 100}, {x1, 100}, {x0, 120}, {x1, 120}}}
	}
	line := Line{Text: "ИВАНОВ P<RUS<<X", Confidence: 0.9, Words: []Word{word("ИВАНОВ", 0, 90), word("P<RUS<<X", 110, 400)},
		Coords: [4][2]int{{0, 100}, {400, 100}, {0, 120}, {400, 120}}}
	tests := []struct {
		name    string
		band    image.Rectangle
		want    string
		changed bool
	}{
		{"line beside the band stays whole", image.Rect(0, 200, 400, 260), line.Text, false},
		{"words on the band go, the rest stays", image.Rect(100, 90, 420, 130), "ИВАНОВ", true},
		{"line on the band goes", image.Rect(0, 90, 420, 130), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, changed := outside(line, tt.band)
			if got.Text != tt.want || changed != tt.changed {
				t.Fatalf("outside = %q, %v; want %q, %v", got.Text, changed, tt.want, tt.changed)
			}
			if tt.want == "ИВАНОВ" && got.Coords != [4][2]int{{0, 100}, {90, 100}, {0, 120}, {90, 120}} {
				t.Errorf("kept line's box %v, want the kept word's", got.Coords)
			}
		})
	}
}
