package orient

import (
	"context"
	"os"
	"testing"
	"time"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/synth"
)

// tuneCrops calls fn for the catalogue documents of fresh synthetic crops
// at phone-photo size (factory seed), each with its text boxes as the
// orienter detects them, scene by scene until at least n were seen, and
// returns how many were: the inputs of the ORIENT_TUNE measurements below.
func tuneCrops(t *testing.T, o *Orienter, seed uint64, n int, fn func(cr synth.Crop, boxes []ppocr.Box)) int {
	t.Helper()
	g, err := synth.New(synth.Config{Seed: seed, Size: 1600, Effects: synth.DefaultEffects()})
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	for i := 0; done < n; i++ {
		crops, err := g.Crops(context.Background(), i, 900, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		for _, cr := range crops {
			if doctypes.IsSpecial(cr.Type) {
				continue
			}
			boxes, err := DetectLines(context.Background(), o.text, cr.Img)
			if err != nil {
				t.Fatal(err)
			}
			done++
			fn(cr, boxes)
		}
	}
	return done
}

// argmax returns the index of p's largest value (the first of ties).
func argmax[T float32 | float64](p []T) int {
	best := 0
	for r := range p {
		if p[r] > p[best] {
			best = r
		}
	}
	return best
}

// TestTextEarlyStop measures, on fresh synthetic crops at phone-photo
// size, what stopping the text reading once it is decided costs in
// accuracy and saves in time, for a few gaps. It chose decisiveGap; set
// ORIENT_TUNE=1 to run it.
func TestTextEarlyStop(t *testing.T) {
	if os.Getenv("ORIENT_TUNE") == "" {
		t.Skip("ORIENT_TUNE not set")
	}
	o := open(t)
	gaps := []float64{10, 0.25, 0.15, 0.1, 0.05}
	right := make([]int, len(gaps))
	spent := make([]time.Duration, len(gaps))
	n := tuneCrops(t, o, 616161, 120, func(cr synth.Crop, boxes []ppocr.Box) {
		for k, gap := range gaps {
			t0 := time.Now()
			tr, ok, err := readText(context.Background(), o.text, cr.Img, boxes, gap, mixedShare)
			spent[k] += time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			if ok && argmax(tr.P) == int(cr.Rotation) {
				right[k]++
			}
		}
	})
	for k, gap := range gaps {
		t.Logf("gap %.2f: text right on %d of %d crops, %.0f ms a crop", gap, right[k], n, spent[k].Seconds()*1000/float64(n))
	}
}

// TestTextMixedShare measures, on fresh synthetic crops at phone-photo
// size, the orienter's decision (text reading and docnet's vote) for a few
// shares of text running the lesser way from which both ways are read. It
// chose mixedShare; set ORIENT_TUNE=1 to run it.
func TestTextMixedShare(t *testing.T) {
	if os.Getenv("ORIENT_TUNE") == "" {
		t.Skip("ORIENT_TUNE not set")
	}
	o := open(t)
	shares := []float64{1e9, 0.75, 0.5, 0.35, 0.25}
	right := make([]int, len(shares))
	spent := make([]time.Duration, len(shares))
	n := tuneCrops(t, o, 717171, 300, func(cr synth.Crop, boxes []ppocr.Box) {
		out, err := o.sess.Run(context.Background(), o.sess.Spec().Input.Tensor(nil, cr.Img), 1)
		if err != nil {
			t.Fatal(err)
		}
		for k, share := range shares {
			t0 := time.Now()
			tr, ok, err := readText(context.Background(), o.text, cr.Img, boxes, decisiveGap, share)
			spent[k] += time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			p := o.head.Probabilities(out[OrientHead])
			if ok {
				p = combine(tr.P, out[OrientHead])
			}
			if argmax(p) == int(cr.Rotation) {
				right[k]++
			}
		}
	})
	for k, share := range shares {
		t.Logf("share %.2f: right on %d of %d crops, text reading %.0f ms a crop", share, right[k], n, spent[k].Seconds()*1000/float64(n))
	}
}
