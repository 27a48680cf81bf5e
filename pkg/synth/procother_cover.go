package synth

import (
	"fmt"
	"math"

	"docsuite/pkg/doctypes"
)

// coverHues are the hues (degrees) of booklet covers: burgundy and red
// passports, navy and blue ones, green labour and medical books, brown
// leatherette.
var coverHues = []float64{350, 355, 5, 220, 225, 210, 150, 140, 25, 30}

// coverCountries are the lines printed above a cover's emblem.
var coverCountries = []string{
	"РОССИЙСКАЯ ФЕДЕРАЦИЯ", "RUSSIAN FEDERATION", "СССР", "РЕСПУБЛИКА КАЗАХСТАН", "ҚАЗАҚСТАН РЕСПУБЛИКАСЫ",
	"O'ZBEKISTON RESPUBLIKASI", "РЕСПУБЛИКА БЕЛАРУСЬ", "КЫРГЫЗ РЕСПУБЛИКАСЫ", "ТОҶИКИСТОН", "УКРАЇНА",
	"REPUBLIC OF ARMENIA", "AZƏRBAYCAN RESPUBLİKASI", "TÜRKİYE CUMHURİYETİ", "REPUBLIC OF INDIA",
	"МИНИСТЕРСТВО ОБРАЗОВАНИЯ", "",
}

// coverTitles are the names printed on closed booklets: passports (their
// covers carry none of the inner pages' fields), labour and medical
// books, certificates in hard covers.
var coverTitles = []string{
	"ПАСПОРТ", "PASSPORT", "ПАСПОРТ / PASSPORT", "ТРУДОВАЯ КНИЖКА", "АТТЕСТАТ", "ДИПЛОМ",
	"ЛИЧНАЯ МЕДИЦИНСКАЯ КНИЖКА", "ВОЕННЫЙ БИЛЕТ", "ЗАЧЁТНАЯ КНИЖКА", "УДОСТОВЕРЕНИЕ", "СВИДЕТЕЛЬСТВО",
	"PASAPORT", "ПАСПОРТ ГРАЖДАНИНА", "",
}

// ProceduralCover builds the template of a closed booklet's cover (see
// otherLayout.cover), typed other.
func ProceduralCover(r *Rand) *Template {
	sh := coverShape
	w, h := r.Range(sh.w[0], sh.w[1]), r.Range(sh.h[0], sh.h[1])
	t := &Template{Type: doctypes.Other, SizeMM: [2]float64{w, h}, CornerMM: sh.corner, Locale: "ru", Values: map[string]string{}}
	L := &otherLayout{r: r, t: t, w: w, h: h}
	L.cover()
	return t
}

// coverDoc renders a closed booklet's cover as a document of the class
// other.
func (g *Generator) coverDoc(r *Rand, p *painter) *Doc {
	t := ProceduralCover(r.Child(0xC0FE))
	d := g.rd.renderOver(t, g.rd.drawBackground(t, p), r, p)
	d.Special = true
	return d
}

// cover lays out a closed booklet: a dark coloured leatherette cover with a gold
// (or blind-embossed) country line, emblem and title, sometimes a frame
// and an e-passport chip mark. Real photos show these beside the open
// documents (a fan of passports, an attestat in its red case); they are
// documents of the class other.
func (L *otherLayout) cover() {
	r, t := L.r, L.t
	hue := Pick(r, coverHues)
	if r.Bool(0.2) {
		hue = r.Range(0, 360)
	}
	// Coloured, never black: a black slab on a table is a phone.
	base := hsl(hue, r.Range(0.35, 0.7), r.Range(0.16, 0.32), 255)
	t.Paper = fmt.Sprintf("#%02x%02x%02x", base.R, base.G, base.B)
	if r.Bool(0.5) { // sheen of the cover's plastic
		lit := mix(base, hsl(hue, 0.2, 0.6, 255), r.Range(0.1, 0.3))
		t.Paper2 = fmt.Sprintf("#%02x%02x%02x", lit.R, lit.G, lit.B)
		t.Gradient = Pick(r, []string{"h", "v", "d", "radial"})
	}
	// Leatherette grain.
	t.Patterns = append(t.Patterns, Pattern{Kind: "noise", Color: "#000000", Alpha: r.Range(0.05, 0.14), Scale: r.Range(0.3, 0.8)})
	if r.Bool(0.3) {
		t.Patterns = append(t.Patterns, Pattern{Kind: "blobs", Color: "#000000", Alpha: r.Range(0.04, 0.1), Scale: r.Range(2, 6)})
	}
	ink := Pick(r, []string{"#c9a646", "#d4b35a", "#b8963e", "#e0c77a", "#c8c8c8"})
	if r.Bool(0.1) { // blind embossing: a shade lighter than the cover
		e := mix(base, hsl(hue, 0.3, 0.5, 255), 0.35)
		ink = fmt.Sprintf("#%02x%02x%02x", e.R, e.G, e.B)
	}
	w, h := L.w, L.h
	font := Pick(r, []string{"serif-bold", "sans-bold", "times-bold", "arial-bold"})
	if r.Bool(0.3) {
		L.add(Element{Kind: "rect", Box: [4]float64{w * 0.06, w * 0.06, w * 0.88, h - w*0.12}, Color: ink, Width: r.Range(0.3, 0.9)})
	}
	y := h * r.Range(0.08, 0.16)
	if country := Pick(r, coverCountries); country != "" {
		size := math.Min(w*0.8/(0.7*float64(len([]rune(country)))), w*0.075)
		L.add(Element{Kind: "text", Box: [4]float64{w * 0.08, y, w * 0.84, size * 1.6}, Text: country, Size: size, Font: font, Color: ink, Align: "c"})
		y += size * 2
	}
	es := w * r.Range(0.35, 0.55)
	style := Pick(r, []string{"eagle", "eagle", "sun", "crescent", "star", "wreath", "chakra", "trident", "shield", "lion", "circle"})
	L.add(Element{Kind: "emblem", Box: [4]float64{(w - es) / 2, y + h*0.04, es, es}, Style: style, Color: ink, Fill: ink})
	y += h*0.04 + es + h*0.05
	if title := Pick(r, coverTitles); title != "" {
		size := math.Min(w*0.8/(0.7*float64(len([]rune(title)))), w*0.1)
		L.add(Element{Kind: "text", Box: [4]float64{w * 0.06, y, w * 0.88, size * 1.6}, Text: title, Size: size, Font: font, Color: ink, Align: "c"})
		y += size * 2
	}
	if r.Bool(0.3) && y < h*0.85 { // the e-passport mark
		cs := w * 0.1
		L.add(Element{Kind: "chip", Box: [4]float64{(w - cs*1.4) / 2, h * 0.86, cs * 1.4, cs}, Color: ink})
	}
}
