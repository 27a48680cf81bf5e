package roles

import (
	"context"
	"image"
	"path/filepath"
	"testing"
)

// TestEdgeColumns checks which detected boxes make the columns the edge
// number is read in: tall boxes near the right edge, grown by the boxes
// stacked in line with them, each column once.
func TestEdgeColumns(t *testing.T) {
	const tw = 500
	series := []image.Rectangle{
		image.Rect(470, 80, 490, 130),  // the series' first pair: not tall
		image.Rect(470, 140, 490, 190), // the second pair
		image.Rect(468, 200, 492, 330), // the number: tall
	}
	cases := []struct {
		name  string
		rects []image.Rectangle
		want  []image.Rectangle
	}{
		{"series and number joined", series, []image.Rectangle{image.Rect(468, 80, 492, 330)}},
		{"a tall box left of the strip", []image.Rectangle{image.Rect(200, 80, 220, 200)}, nil},
		{"lines across only", []image.Rectangle{image.Rect(300, 80, 480, 100), image.Rect(300, 110, 490, 130)}, nil},
		{"a wide line below is not joined", append([]image.Rectangle{image.Rect(100, 335, 495, 355)}, series[2]),
			[]image.Rectangle{series[2]}},
		{"a box far below is not joined", []image.Rectangle{series[2], image.Rect(470, 400, 490, 425)},
			[]image.Rectangle{series[2]}},
		{"two tall boxes of one column, once", []image.Rectangle{image.Rect(470, 40, 490, 120), image.Rect(470, 140, 490, 260)},
			[]image.Rectangle{image.Rect(470, 40, 490, 260)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := edgeColumns(c.rects, tw)
			if len(got) != len(c.want) {
				t.Fatalf("columns %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("column %d %v, want %v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestPassportNumber(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"6606304001", true},
		{"104000000", true}, // the first digit lost at the strip's end
		{"695122", false},   // the number without its series
		{"66063040011", false},
		{"66 06 304001", false}, // read with digits alone there are no spaces
		{"", false},
	} {
		if got := passportNumber(c.text); got != c.want {
			t.Errorf("passportNumber(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestEdgeNumberOnRealDocuments reads real photos: the photo pages of
// Russian passports, whose series and number runs up the right edge, and
// documents that print none there.
func TestEdgeNumberOnRealDocuments(t *testing.T) {
	skipWithoutRealdata(t)
	zr := openTestZoneReader(t, testModels(false))
	for _, c := range []struct {
		file string
		want bool
	}{
		{"Exemtik-passport-detector/data__original__2-1.jpg", true},
		{"Exemtik-passport-detector/data__original__passport_min.png", true},
		{"Exemtik-passport-detector/data__original__passport_3.jpg", true},
		{"uN1ck-DataModel/DataModel__Docs Examples__snils1.jpg", false},
		{"uN1ck-DataModel/DataModel__Docs Examples__prava2.png", false},
		{"iAmmarTahir-MASK-RCNN-Dataset/IndPass__Original__1.jpg", false},
		{"iAmmarTahir-MASK-RCNN-Dataset/PakPass__Original__8.jpg", false},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			ev, _, _, err := zr.Read(context.Background(), realPage(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if ev.EdgeNumber != c.want {
				t.Errorf("edge number read %v, want %v", ev.EdgeNumber, c.want)
			}
		})
	}
}

// TestEdgeNumberNamesRealPassports classifies a real photo of a Russian
// passport's photo page that the picture and the printed words alone take
// for an international passport: with the number read along the edge it
// is passport_main. (make eval measures the other real passports.)
func TestEdgeNumberNamesRealPassports(t *testing.T) {
	skipWithoutRealdata(t)
	m := testModels(true)
	zr := openTestZoneReader(t, m)
	cl := openTestClassifier(t, m)
	for _, file := range []string{
		"Exemtik-passport-detector/data__original__new_data_1.png",
	} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			img := realPage(t, file)
			ev, _, _, err := zr.Read(context.Background(), img)
			if err != nil {
				t.Fatal(err)
			}
			if !ev.EdgeNumber {
				t.Fatal("edge number not read")
			}
			got, err := cl.ClassifyWith(context.Background(), img, nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			ev.EdgeNumber = false
			before, err := cl.ClassifyWith(context.Background(), img, nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			if before.Type == "passport_main" {
				t.Logf("already passport_main without the number (%.2f)", before.Confidence)
			}
			if got.Type != "passport_main" {
				t.Errorf("type %s (%.2f), want passport_main (without the number: %s %.2f)", got.Type, got.Confidence, before.Type, before.Confidence)
			}
		})
	}
}
