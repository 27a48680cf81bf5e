package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	_ "image/png"
	"os"
	"sort"
	"time"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// pair is one truth document matched with one prediction.
type pair struct {
	File           string // the input file, for the report's list of wrong types
	Truth, Pred    string
	Conf           float64
	IoU            float64 // -1 when the truth has no quad
	RotOK, RotSeen bool
	// RotTruth and RotPred are the rotation codes wanted and answered,
	// for the report's list of wrong orientations (when RotSeen).
	RotTruth, RotPred int
}

// results accumulates an evaluation.
type results struct {
	Files, Failed        int
	Truth, Found, Missed int
	Spurious             int
	// SpuriousItems lists the spurious items: answered type, confidence
	// and file.
	SpuriousItems []string
	Pairs         []pair
	Elapsed       []time.Duration
	Pages         int
	// LaterPages counts the pages after a file's first, whose first item
	// is set aside (laterPageExtras).
	LaterPages         int
	Orient8, Orient8OK int
	// Orient8Typed and Orient8TypedOK count the turned images whose upright
	// original the service names a catalogue type: the orienter's own
	// measure, apart from documents the classifier calls other (which are
	// never turned, so every turn of them counts wrong above).
	// Orient8FellSpecial counts those turned images answered other,
	// not_document or empty.
	Orient8Typed, Orient8TypedOK, Orient8FellSpecial int
	Failures                                         []string
	Misses                                           []string
	// Orient8Misses lists each wrong turn of the 8-way check: the file,
	// the turn applied, and what the service answered.
	Orient8Misses []string
}

const iouMatch = 0.5

func evaluate(ctx context.Context, c *client, cases []testCase, orient8 bool) *results {
	r := &results{}
	for i, tc := range cases {
		fmt.Fprintf(os.Stderr, "\r[%d/%d] %s", i+1, len(cases), tc.Path)
		data, err := os.ReadFile(tc.Path)
		if err != nil {
			r.Failed++
			r.Failures = append(r.Failures, fmt.Sprintf("%s: %v", tc.Path, err))
			continue
		}
		a, err := c.classify(ctx, data)
		r.Files++
		if err != nil {
			r.Failed++
			r.Failures = append(r.Failures, fmt.Sprintf("%s: %v", tc.Path, err))
			continue
		}
		r.Elapsed = append(r.Elapsed, a.Elapsed)
		r.Pages += a.Pages
		r.match(tc, a)
		if orient8 && len(tc.Docs) == 1 && !doctypes.IsSpecial(tc.Docs[0].Type) && doctypes.Known(tc.Docs[0].Type) {
			r.orientEight(ctx, c, tc.Path, data)
		}
	}
	fmt.Fprintln(os.Stderr)
	return r
}

// match pairs predictions with truth: by quad IoU where the truth has
// quads, else by type (the manifest lists types without positions). The
// labelled documents lie on the first page: the first item of every later
// page is set aside (laterPageExtras).
func (r *results) match(tc testCase, a answer) {
	r.Truth += len(tc.Docs)
	a.Items = firstPageAndExtras(a.Items)
	r.LaterPages += max(0, a.Pages-1)
	used := make([]bool, len(a.Items))
	var unmatched []truthDoc
	for _, td := range tc.Docs {
		if td.Quad == nil {
			unmatched = append(unmatched, td)
			continue
		}
		best, bi := 0.0, -1
		for j, p := range a.Items {
			if !used[j] {
				if v := iou(*td.Quad, p.Quad); v > best {
					best, bi = v, j
				}
			}
		}
		if bi < 0 || best < iouMatch {
			r.Missed++
			r.Misses = append(r.Misses, fmt.Sprintf("%s: %s not found (best IoU %.2f)", tc.Path, td.Type, best))
			continue
		}
		used[bi] = true
		r.Found++
		p := a.Items[bi]
		pr := pair{File: tc.Path, Truth: td.Type, Pred: p.Type, Conf: p.Confidence, IoU: best}
		if td.Rotation != nil && !doctypes.IsSpecial(td.Type) {
			pr.RotSeen, pr.RotOK = true, p.Rotation == *td.Rotation
			pr.RotTruth, pr.RotPred = *td.Rotation, p.Rotation
		}
		r.Pairs = append(r.Pairs, pr)
	}
	// Type-only truth: pair equal types first, then the rest in order.
	var rest []int
	for j := range a.Items {
		if !used[j] {
			rest = append(rest, j)
		}
	}
	var leftTruth []truthDoc
	for _, td := range unmatched {
		k := -1
		for x, j := range rest {
			if a.Items[j].Type == td.Type {
				k = x
				break
			}
		}
		if k < 0 {
			leftTruth = append(leftTruth, td)
			continue
		}
		p := a.Items[rest[k]]
		rest = append(rest[:k], rest[k+1:]...)
		r.Found++
		r.Pairs = append(r.Pairs, pair{File: tc.Path, Truth: td.Type, Pred: p.Type, Conf: p.Confidence, IoU: -1})
	}
	for _, td := range leftTruth {
		if len(rest) == 0 {
			r.Missed++
			r.Misses = append(r.Misses, fmt.Sprintf("%s: %s not found", tc.Path, td.Type))
			continue
		}
		p := a.Items[rest[0]]
		rest = rest[1:]
		r.Found++
		r.Pairs = append(r.Pairs, pair{File: tc.Path, Truth: td.Type, Pred: p.Type, Conf: p.Confidence, IoU: -1})
	}
	r.Spurious += len(rest)
	for _, j := range rest {
		p := a.Items[j]
		r.SpuriousItems = append(r.SpuriousItems, fmt.Sprintf("%s (%.2f): %s", p.Type, p.Confidence, tc.Path))
	}
}

// firstPageAndExtras keeps the items of the first page and those after the
// first of every later page.
func firstPageAndExtras(items []predicted) []predicted {
	seen := map[int]bool{}
	var out []predicted
	for _, p := range items {
		if p.Page > 1 && !seen[p.Page] {
			seen[p.Page] = true
			continue
		}
		out = append(out, p)
	}
	return out
}

// orientEight turns and mirrors an upright single-document image the 8
// ways and checks the service names the rotation that undoes each.
func (r *results) orientEight(ctx context.Context, c *client, path string, data []byte) {
	// The pixels are turned as the service sees them upright: a photo's
	// EXIF orientation applied first (image.Decode ignores it, and turning
	// the raw pixels would put every answer off by that turn).
	pages, err := decodeData(ctx, data)
	if err != nil || len(pages) != 1 {
		return
	}
	img := pages[0]
	base, err := c.classify(ctx, data)
	if err != nil || len(base.Items) != 1 || base.Items[0].Rotation != 0 {
		return // only images the service itself sees as upright are a fair reference
	}
	typed := !doctypes.IsSpecial(base.Items[0].Type)
	for s := geom.Rotation(1); s < geom.NumRotations; s++ {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, transform(img, s), &jpeg.Options{Quality: 92}); err != nil {
			continue
		}
		a, err := c.classify(ctx, buf.Bytes())
		r.Orient8++
		if typed {
			r.Orient8Typed++
		}
		if err != nil || len(a.Items) == 0 {
			r.Orient8Misses = append(r.Orient8Misses, fmt.Sprintf("%s: turned %d: no answer (%v)", path, s, err))
			continue
		}
		sort.Slice(a.Items, func(i, j int) bool { return quadArea(a.Items[i].Quad) > quadArea(a.Items[j].Quad) })
		ok := geom.Rotation(a.Items[0].Rotation) == s.Inverse()
		if ok {
			r.Orient8OK++
		} else {
			r.Orient8Misses = append(r.Orient8Misses, fmt.Sprintf("%s (upright: %s): turned %d, answered rotation %d (want %d) as %s %.2f, %d items",
				path, base.Items[0].Type, s, a.Items[0].Rotation, s.Inverse(), a.Items[0].Type, a.Items[0].Confidence, len(a.Items)))
		}
		if typed {
			if ok {
				r.Orient8TypedOK++
			}
			if doctypes.IsSpecial(a.Items[0].Type) {
				r.Orient8FellSpecial++
			}
		}
	}
}

// transform applies a rotation code to an image: mirror first, then k
// quarter turns clockwise.
func transform(src image.Image, r geom.Rotation) image.Image {
	b := src.Bounds()
	cur := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(cur, cur.Bounds(), src, b.Min, draw.Src)
	if r.Mirrored() {
		w, h := cur.Bounds().Dx(), cur.Bounds().Dy()
		m := image.NewRGBA(cur.Bounds())
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				copy(m.Pix[m.PixOffset(w-1-x, y):][:4], cur.Pix[cur.PixOffset(x, y):][:4])
			}
		}
		cur = m
	}
	for i := 0; i < r.Turns(); i++ {
		w, h := cur.Bounds().Dx(), cur.Bounds().Dy()
		t := image.NewRGBA(image.Rect(0, 0, h, w))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				copy(t.Pix[t.PixOffset(h-1-y, x):][:4], cur.Pix[cur.PixOffset(x, y):][:4])
			}
		}
		cur = t
	}
	return cur
}
