package synth

import (
	"math"
	"strings"
)

// page stacks random blocks (paragraphs, label/value rows, tables, ruled
// lines, photo rows, codes) until the sheet is full or the drawn count
// is reached; pages are sometimes split in two columns.
func (L *otherLayout) page() {
	r := L.r
	n := r.IntRange(2, 7)
	for i := 0; i < n && L.free() > 6*L.k; i++ {
		if r.Bool(0.15) && L.x1-L.x0 > 100 { // two columns side by side
			top, mid := L.y, (L.x0+L.x1)/2
			x0, x1 := L.x0, L.x1
			L.x1 = mid - 3
			L.block()
			y0 := L.y
			L.y, L.x0, L.x1 = top, mid+3, x1
			L.block()
			L.y, L.x0 = math.Max(L.y, y0), x0
			continue
		}
		L.block()
	}
}

// block draws one block at the current position and moves below it.
func (L *otherLayout) block() {
	r := L.r
	w := L.x1 - L.x0
	s := L.k * r.Range(2.2, 3.4)
	gap := s * r.Range(0.6, 2)
	switch r.Weighted([]float64{3, 2.5, 2, 1, 1.2, 0.6, 0.5}) {
	case 0: // a paragraph
		h := math.Min(L.free(), s*1.5*float64(r.IntRange(2, 12)))
		L.add(Element{Kind: "para", Box: [4]float64{L.x0, L.y, w, h}, Size: s, Font: L.font, Gen: L.lang, Color: L.ink,
			Align: Pick(r, []string{"l", "l", "c"}), Hand: r.Bool(0.08)})
		L.y += h + gap
	case 1: // label and value rows, typed or handwritten, on rules or not
		L.rows(L.x0, w, r.IntRange(2, 7), s)
		L.y += gap
	case 2: // a ruled table
		rows, cols := r.IntRange(3, 12), r.IntRange(2, 6)
		h := math.Min(L.free(), float64(rows)*s*r.Range(1.6, 2.4))
		L.add(Element{Kind: "table", Box: [4]float64{L.x0, L.y, w, h}, N: rows, M: cols, Font: L.font, Gen: L.lang,
			Color: Pick(r, []string{L.ink, L.accent}), Width: r.Range(0.1, 0.4)})
		L.y += h + gap
	case 3: // empty ruled lines to fill in
		n := r.IntRange(2, 8)
		h := math.Min(L.free(), float64(n)*s*2.2)
		L.add(Element{Kind: "lines", Box: [4]float64{L.x0, L.y, w, h}, N: n, Color: L.ink})
		L.y += h + gap
	case 4: // a photo with rows beside it
		ph := math.Min(L.free(), w*r.Range(0.22, 0.4)*1.3)
		pw := ph / 1.3
		px := L.x0
		if r.Bool(0.35) {
			px = L.x1 - pw
		}
		style := Pick(r, []string{"", "", "bw"})
		L.add(Element{Kind: "photo", Box: [4]float64{px, L.y, pw, ph}, Style: style})
		top := L.y
		x := L.x0 + pw + 3
		if px > L.x0 {
			x = L.x0
		}
		L.rows(x, w-pw-3, int(math.Max(1, ph/(s*3))), s)
		L.y = math.Max(L.y, top+ph) + gap
	case 5: // a code block
		h := math.Min(L.free(), w*r.Range(0.12, 0.3))
		if r.Bool(0.5) {
			L.add(Element{Kind: "qr", Box: [4]float64{L.x0 + r.Range(0, w-h), L.y, h, h}, N: r.IntRange(21, 33)})
		} else {
			bw := math.Min(w, h*r.Range(2, 5))
			style := Pick(r, []string{"", "pdf417"})
			L.add(Element{Kind: "barcode", Box: [4]float64{L.x0 + r.Range(0, w-bw), L.y, bw, h * 0.5}, Style: style})
		}
		L.y += h + gap
	default: // a coloured section heading
		h := s * 1.8
		L.add(Element{Kind: "rect", Box: [4]float64{L.x0, L.y, w, h}, Fill: pastel(r, r.Range(0.7, 0.9))})
		L.add(Element{Kind: "text", Box: [4]float64{L.x0 + 1, L.y, w - 2, h}, Text: L.text(r.IntRange(1, 4)), Size: s, Font: L.bold, Color: L.ink})
		L.y += h + gap*0.5
	}
}

// rows draws n label/value rows in a column at x of width w.
func (L *otherLayout) rows(x, w float64, n int, s float64) {
	r := L.r
	pos := Pick(r, []string{"left", "top", "top"})
	hand := r.Bool(0.25)
	ruled := r.Bool(0.4)
	lw := w * r.Range(0.25, 0.45)
	for i := 0; i < n && L.free() > s*2; i++ {
		rh := s * 1.6
		if pos == "top" {
			rh = s * 2.3
		}
		e := Element{Kind: "field", Box: [4]float64{x, L.y, w, rh}, Gen: Pick(r, otherValueGens), Size: s,
			Label: L.text(r.IntRange(1, 3)), LabelPos: pos, LabelW: lw, Font: L.font, Hand: hand, Color: L.ink}
		if hand {
			e.Font = "hand"
		}
		if r.Bool(0.3) {
			e.Upper = true
		}
		L.add(e)
		if ruled {
			L.add(Element{Kind: "line", Box: [4]float64{x, L.y + rh, w, 0}, Color: L.ink, Width: 0.1})
		}
		L.y += rh + s*0.4
	}
}

// card lays out an ID-like card: a photo on one side, rows on the
// other, and sometimes a strip, a chip or a machine-readable zone.
func (L *otherLayout) card() {
	r := L.r
	w := L.x1 - L.x0
	s := L.k * r.Range(2, 2.8)
	mrz := r.Bool(0.15) && L.w > L.h
	if mrz {
		L.yEnd -= L.h * 0.3
		L.t.Country = Pick(r, []string{"UTO", "D<<", "FRA", "ITA", "ESP", "NLD", "POL", "CZE", "GEO", "LTU", "ISR", "CHN", "USA"})
		L.t.Values["doc_number_pat"] = "LLddddddd"
		L.add(Element{Kind: "mrz", Box: [4]float64{L.x0 * 0.6, L.h * 0.72, L.w - L.x0*1.2, L.h * 0.25}, Style: "td1"})
	}
	if r.Bool(0.8) {
		ph := math.Min(L.free(), L.h*r.Range(0.4, 0.6))
		pw := ph * r.Range(0.75, 0.85)
		if L.h > L.w { // portrait badge: photo centred on top
			px := (L.w - pw) / 2
			L.add(Element{Kind: "photo", Box: [4]float64{px, L.y, pw, ph}, Style: Pick(r, []string{"", "bw"})})
			L.y += ph + s
			L.rows(L.x0, w, r.IntRange(2, 5), s)
		} else {
			px, x := L.x0, L.x0+pw+2
			if r.Bool(0.3) {
				px, x = L.x1-pw, L.x0
			}
			top := L.y
			L.add(Element{Kind: "photo", Box: [4]float64{px, L.y, pw, ph}, Style: Pick(r, []string{"", "bw"})})
			L.rows(x, w-pw-2, r.IntRange(2, 6), s)
			L.y = math.Max(L.y, top+ph)
		}
	} else {
		L.rows(L.x0, w, r.IntRange(2, 6), s)
	}
	if r.Bool(0.25) {
		L.add(Element{Kind: "chip", Box: [4]float64{L.x0 + r.Range(0, w*0.6), L.h * r.Range(0.3, 0.6), 11, 9}})
	}
	if r.Bool(0.3) {
		hs := L.h * r.Range(0.15, 0.3)
		L.add(Element{Kind: "hologram", Box: [4]float64{L.x1 - hs, L.yEnd - hs, hs, hs}})
	}
	if !mrz && r.Bool(0.3) && L.free() > 5 {
		L.add(Element{Kind: "barcode", Box: [4]float64{L.x0, L.yEnd - 5, w * r.Range(0.4, 0.9), 5}})
	}
}

// receipt lays out a till receipt: items and prices in a narrow column,
// a total, sometimes a code.
func (L *otherLayout) receipt() {
	r := L.r
	w := L.x1 - L.x0
	s := L.k * r.Range(2, 2.8)
	font := Pick(r, []string{"mono", "mono", "cond", L.font})
	n := int(math.Min(float64(r.IntRange(4, 25)), L.free()/(s*1.5)-4))
	for i := 0; i < n; i++ {
		L.add(Element{Kind: "field", Box: [4]float64{L.x0, L.y, w * 0.68, s * 1.4}, Gen: "words:" + L.lang, Size: s, Font: font, Color: L.ink})
		L.add(Element{Kind: "field", Box: [4]float64{L.x0 + w*0.7, L.y, w * 0.3, s * 1.4}, Gen: "pat:ddd.dd", Size: s, Font: font, Color: L.ink, Align: "r"})
		L.y += s * 1.5
	}
	L.add(Element{Kind: "line", Box: [4]float64{L.x0, L.y, w, 0}, Color: L.ink, Width: 0.2})
	L.y += s * 0.5
	L.add(Element{Kind: "field", Box: [4]float64{L.x0, L.y, w, s * 2}, Gen: "pat:dddd.dd", Label: L.text(1), LabelPos: "left", Size: s * 1.3, Font: font, Color: L.ink, Align: "r"})
	L.y += s * 2.5
	if r.Bool(0.5) && L.free() > w*0.5 {
		L.add(Element{Kind: "qr", Box: [4]float64{L.x0 + w*0.25, L.y, w * 0.5, w * 0.5}})
		L.y += w*0.5 + s
	}
}

// extras scatters stamps, signatures, dates and page numbers.
func (L *otherLayout) extras() {
	r := L.r
	small := math.Min(L.w, L.h)
	if r.Bool(0.5) {
		d := small * r.Range(0.18, 0.32)
		style := Pick(r, []string{"round", "round", "rect"})
		h := d
		if style == "rect" {
			h = d * 0.5
		}
		L.add(Element{Kind: "stamp", Box: [4]float64{r.Range(L.x0, math.Max(L.x0, L.x1-d)), r.Range(L.h*0.45, L.h-h-2), d, h},
			Style: style, Text: strings.ToUpper(L.text(r.IntRange(2, 5))), Color: randomAccent(r) + "c8"})
	}
	if r.Bool(0.55) {
		sw := small * r.Range(0.2, 0.35)
		L.add(Element{Kind: "signature", Box: [4]float64{r.Range(L.x0, math.Max(L.x0, L.x1-sw)), r.Range(L.h*0.5, L.h-sw*0.4-2), sw, sw * 0.35}})
	}
	if r.Bool(0.35) {
		s := L.k * 2
		L.add(Element{Kind: "field", Box: [4]float64{L.x0, L.h - L.x0*0.9, L.x1 - L.x0, s * 1.3}, Gen: Pick(r, []string{"date_recent", "pat:dd/dd", "phone", "words:" + L.lang}),
			Size: s, Font: L.font, Color: L.ink, Align: Pick(r, []string{"l", "c", "r"})})
	}
	if r.Bool(0.12) { // a handwritten note across the document
		L.add(Element{Kind: "para", Box: [4]float64{L.x0, r.Range(L.h*0.2, L.h*0.7), L.x1 - L.x0, L.k * 8}, N: 2, Size: L.k * 3, Hand: true, Gen: L.lang, Color: "#1a2a8a"})
	}
}
