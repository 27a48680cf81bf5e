package main

import (
	"math"
	"reflect"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/prob"
)

// testReadings are three crops of three families, each with its picture
// right and its title read.
func testReadings() ([]string, []reading) {
	classes := []string{"snils_front", "ukr_id_2016_back", "inn_person", doctypes.Other, doctypes.NotDocument, doctypes.Empty}
	words := map[string]string{
		"snils_front":      "СТРАХОВОЕ СВИДЕТЕЛЬСТВО ОБЯЗАТЕЛЬНОГО ПЕНСИОННОГО СТРАХОВАНИЯ",
		"ukr_id_2016_back": "",
		"inn_person":       "СВИДЕТЕЛЬСТВО О ПОСТАНОВКЕ НА УЧЕТ ФИЗИЧЕСКОГО ЛИЦА В НАЛОГОВОМ ОРГАНЕ",
	}
	var rs []reading
	for i, t := range classes[:3] {
		p := []float64{0.02, 0.02, 0.02, 0.02, 0.01, 0.01}
		p[i] = 0.9
		rs = append(rs, reading{File: t, Type: t, P: p, Words: classify.SplitWords(words[t])})
	}
	return classes, rs
}

// TestSwapPictures checks that the copies swapPictures adds carry the
// picture of a crop of another family, keep their own words and type, and
// come in the share asked for, the same on every run.
func TestSwapPictures(t *testing.T) {
	_, rs := testReadings()
	for _, c := range []struct {
		name   string
		q      float64
		copies int
	}{
		{"none", 0, 0},
		{"every crop", 1, len(rs)},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := swapPictures(rs, c.q, 7)
			if got := len(out) - len(rs); got != c.copies {
				t.Fatalf("%d copies, want %d", got, c.copies)
			}
			if !reflect.DeepEqual(out[:len(rs)], rs) {
				t.Error("the crops as read were changed")
			}
			for _, r := range out[len(rs):] {
				var from *reading
				for i := range rs {
					if reflect.DeepEqual(rs[i].P, r.P) {
						from = &rs[i]
					}
				}
				if from == nil || doctypes.Family(from.Type) == doctypes.Family(r.Type) {
					t.Errorf("%s: picture %v is not another family's", r.Type, r.P)
				}
			}
			if again := swapPictures(rs, c.q, 7); !reflect.DeepEqual(again, out) {
				t.Error("a second run with the same seed differs")
			}
		})
	}
}

// TestSharpenCalibratesUnsureWeights checks that weights which answer
// right but unsurely are scaled up, lowering the loss on the same crops,
// and that the answers do not change.
func TestSharpenCalibratesUnsureWeights(t *testing.T) {
	tw, err := classify.LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	classes, rs := testReadings()
	unsure := classify.WordWeights{Picture: 0.2, Matched: 0.05, Share: 0.1, OtherUnknown: 0.2, NonDocRead: -0.1,
		Values: 0.02, OtherShare: 0.1, EdgeNumber: 1, PictureFloor: 1e-3}
	loss := func(w classify.WordWeights) float64 {
		sum := 0.0
		for _, r := range rs {
			p := tw.ApplyWords(w, classes, r.P, r.score(tw))
			sum -= math.Log(p[indexOf(classes, r.Type)])
		}
		return sum
	}
	sharp, f := sharpen(tw, classes, rs, unsure)
	if f <= 1 {
		t.Fatalf("factor %.3f, want above 1 for unsure weights", f)
	}
	if loss(sharp) >= loss(unsure) {
		t.Errorf("loss %.4f after, %.4f before", loss(sharp), loss(unsure))
	}
	if math.Abs(sharp.Matched/unsure.Matched-f) > 1e-9 || math.Abs(sharp.EdgeNumber/unsure.EdgeNumber-f) > 1e-9 {
		t.Errorf("weights not all scaled by %.3f: %+v", f, sharp)
	}
	for _, r := range rs {
		a := prob.Softmax(tw.Logits(unsure, classes, r.P, r.score(tw)))
		b := tw.ApplyWords(sharp, classes, r.P, r.score(tw))
		if argmax(a) != argmax(b) {
			t.Errorf("%s: answer changed from %s to %s", r.Type, classes[argmax(a)], classes[argmax(b)])
		}
	}
}

func indexOf(classes []string, c string) int {
	for i, x := range classes {
		if x == c {
			return i
		}
	}
	return -1
}
