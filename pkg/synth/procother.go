package synth

import (
	"fmt"
	"math"
	"strings"
)

// The procedural "other" document. Real documents outside the catalogue
// (letters, forms with tables, certificates, foreign cards, receipts,
// tickets, screenshots of documents) are far more varied than any closed
// set of layouts, so a share of the other instances is laid out at random
// per instance: shape, paper and patterns, header, blocks of text in
// several scripts, ruled tables, photos, stamps, signatures and logos.
// The layout is a Template built from the instance's random stream, so
// it is deterministic per seed like the rest of the factory.

// otherShape is one physical format a procedural other document takes.
type otherShape struct {
	name      string
	w, h      [2]float64 // ranges of width and height in mm
	corner    float64    // corner radius in mm
	paperlike bool
	weight    float64
}

// otherShapes spans pages, cards, receipts, booklet pages, closed
// booklets' covers and screens; pages and cards come in both orientations.
var otherShapes = []otherShape{
	{"page", [2]float64{200, 220}, [2]float64{270, 300}, 0, true, 3},
	{"half_page", [2]float64{140, 160}, [2]float64{200, 215}, 0, true, 1.5},
	{"landscape", [2]float64{270, 300}, [2]float64{195, 215}, 0, true, 1.2},
	{"card", [2]float64{84, 90}, [2]float64{52, 58}, 3.2, false, 2.5},
	{"card_portrait", [2]float64{52, 58}, [2]float64{84, 90}, 3.2, false, 0.8},
	{"receipt", [2]float64{56, 82}, [2]float64{110, 260}, 0, true, 1},
	{"booklet", [2]float64{120, 128}, [2]float64{85, 92}, 1, false, 1},
	{"square", [2]float64{95, 150}, [2]float64{95, 150}, 0, true, 0.7},
	{"screen", [2]float64{65, 75}, [2]float64{135, 160}, 4, false, 0.8},
	coverShape,
}

// coverShape is a closed booklet's cover (see ProceduralCover).
var coverShape = otherShape{"cover", [2]float64{86, 104}, [2]float64{122, 145}, 3, false, 0.9}

// otherScripts pairs a filler language with the font drawing its script.
var otherScripts = []struct{ lang, font, bold string }{
	{"ru", "sans", "sans-bold"}, {"ru", "times", "times-bold"}, {"ru", "arial", "arial-bold"},
	{"en", "arial", "arial-bold"}, {"en", "serif", "serif-bold"}, {"en", "cond", "cond-bold"},
	{"de", "sans", "sans-bold"}, {"fr", "times", "times-bold"}, {"kz", "arial", "arial-bold"},
	{"uz", "sans", "sans-bold"}, {"tr", "arial", "arial-bold"}, {"hy", "arm", "arm-bold"},
	{"ka", "geor", "geor"}, {"ar", "arab", "arab-bold"}, {"hi", "deva", "deva-bold"},
	{"bn", "beng", "beng-bold"}, {"zh", "jp", "jp"}, {"el", "noto", "noto"},
}

// otherTitles are document titles that no catalogue type carries.
var otherTitles = map[string][]string{
	"ru": {"ДОГОВОР", "АКТ ВЫПОЛНЕННЫХ РАБОТ", "ЗАЯВЛЕНИЕ", "ДОВЕРЕННОСТЬ", "ПРИКАЗ", "УВЕДОМЛЕНИЕ", "СПРАВКА", "КВИТАНЦИЯ", "ПРОПУСК", "ГРАМОТА", "ДИПЛОМ", "УДОСТОВЕРЕНИЕ", "ВЫПИСКА", "ПРОТОКОЛ", "АНКЕТА", "ЗАКАЗ-НАРЯД", "ТОВАРНАЯ НАКЛАДНАЯ", "ЭЛЕКТРОННЫЙ БИЛЕТ", "ПОСАДОЧНЫЙ ТАЛОН", "ЧЕК", "ХАРАКТЕРИСТИКА", "РАСПИСКА", "НАПРАВЛЕНИЕ", "РЕЦЕПТ", "СЕРТИФИКАТ", "ЧИТАТЕЛЬСКИЙ БИЛЕТ", "ЗАЧЁТНАЯ КНИЖКА", "КАРТА ЛОЯЛЬНОСТИ"},
	"en": {"CERTIFICATE OF COMPLETION", "INVOICE", "STATEMENT", "BOARDING PASS", "MEMBERSHIP CARD", "STUDENT ID", "EMPLOYEE BADGE", "RESIDENCE CARD", "APPLICATION FORM", "PURCHASE ORDER", "RECEIPT", "BANK STATEMENT", "LEASE AGREEMENT", "MEDICAL REPORT", "TICKET", "DIPLOMA", "IDENTITY CARD", "PERMIT", "LIBRARY CARD", "PAYSLIP"},
	"de": {"RECHNUNG", "BESCHEINIGUNG", "AUSWEIS", "VERTRAG", "QUITTUNG", "ZEUGNIS", "AUFENTHALTSTITEL"},
	"fr": {"FACTURE", "ATTESTATION", "CARTE D'IDENTITÉ", "CONTRAT", "REÇU", "CERTIFICAT", "TITRE DE SÉJOUR"},
	"kz": {"АНЫҚТАМА", "КУӘЛІК", "ШАРТ", "ӨТІНІШ"},
	"uz": {"MAʼLUMOTNOMA", "GUVOHNOMA", "SHARTNOMA", "ARIZA"},
	"tr": {"KİMLİK KARTI", "FATURA", "SÖZLEŞME", "BELGE", "MAKBUZ"},
	"hy": {"ՎԿԱՅԱԿԱՆ", "ՏԵՂԵԿԱՆՔ", "ՊԱՅՄԱՆԱԳԻՐ"},
	"ka": {"მოწმობა", "ცნობა", "ხელშეკრულება"},
	"ar": {"شهادة", "فاتورة", "بطاقة هوية", "عقد"},
	"hi": {"प्रमाण पत्र", "पहचान पत्र", "रसीद"},
	"bn": {"সনদপত্র", "পরিচয়পত্র", "রসিদ"},
	"zh": {"証明書", "身分証明書", "領収書", "契約書", "在留カード"},
	"el": {"ΒΕΒΑΙΩΣΗ", "ΤΙΜΟΛΟΓΙΟ", "ΔΕΛΤΙΟ ΤΑΥΤΟΤΗΤΑΣ"},
}

// otherValueGens are value sources for the label/value rows.
var otherValueGens = []string{"full_name", "full_name_lat", "date_recent", "date_of_birth", "address", "phone",
	"doc_number", "amount", "org_name", "pat:dddddddddd", "pat:LL dddddd", "pat:dd.dd.dddd", "place_of_birth_lat"}

// otherInks are dark ink colours for text and rules.
var otherInks = []string{"#1c1c22", "#202a50", "#3a1a1a", "#14381f", "#2a2a2a", "#303848", "#4a2050"}

// otherPatternKinds are the background patterns a procedural document
// may carry.
var otherPatternKinds = []string{"waves", "mesh", "rosette", "circles", "rays", "grid", "dots", "stripes", "blobs", "microtext", "noise"}

// otherLayout collects the elements of one procedural document while its
// blocks are stacked from top to bottom.
type otherLayout struct {
	r          *Rand
	t          *Template
	w, h       float64 // document size in mm
	x0, x1, y  float64 // margins and the top of the free space
	yEnd       float64 // the bottom of the free space
	k          float64 // text scale against an A5 page
	lang, font string
	bold, ink  string
	accent     string
}

// ProceduralOther builds the template of one procedural other document
// from r. The template is typed "other", never cached, and two streams
// seldom give the same layout.
func ProceduralOther(r *Rand) *Template {
	ws := make([]float64, len(otherShapes))
	for i, s := range otherShapes {
		ws[i] = s.weight
	}
	sh := otherShapes[r.Weighted(ws)]
	w, h := r.Range(sh.w[0], sh.w[1]), r.Range(sh.h[0], sh.h[1])
	sc := otherScripts[r.Intn(len(otherScripts))]
	if r.Bool(0.35) { // Russian and English dominate real paperwork
		sc = otherScripts[r.Intn(6)]
	}
	t := &Template{Type: "other", SizeMM: [2]float64{w, h}, CornerMM: sh.corner, Paperlike: sh.paperlike,
		Locale: "ru", Values: map[string]string{}}
	if sc.lang != "ru" && sc.lang != "kz" {
		t.Locale = "en"
	}
	m := math.Min(w, h) * r.Range(0.05, 0.1)
	L := &otherLayout{r: r, t: t, w: w, h: h, x0: m, x1: w - m, y: m, yEnd: h - m,
		k: clamp(math.Min(w, h)/148, 0.62, 1.25) * r.Range(0.8, 1.2), lang: sc.lang, font: sc.font, bold: sc.bold,
		ink: Pick(r, otherInks), accent: randomAccent(r)}
	if sh.name == "cover" {
		L.cover()
		return t
	}
	L.paper(sh)
	if sh.name == "screen" {
		L.screenFrame()
	}
	L.header()
	switch {
	case sh.name == "receipt":
		L.receipt()
	case !sh.paperlike && sh.name != "screen" && r.Bool(0.75):
		L.card()
	default:
		L.page()
	}
	L.extras()
	return t
}

// randomAccent is a saturated colour for bands, logos and frames.
func randomAccent(r *Rand) string {
	hue := r.Range(0, 360)
	c := hsl(hue, r.Range(0.35, 0.85), r.Range(0.25, 0.5), 255)
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// pastel is a light colour of random hue for paper and card stock.
func pastel(r *Rand, light float64) string {
	c := hsl(r.Range(0, 360), r.Range(0.1, 0.6), light, 255)
	return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
}

// paper picks the paper colour, an optional gradient and 0..3 patterns.
func (L *otherLayout) paper(sh otherShape) {
	r, t := L.r, L.t
	switch {
	case sh.paperlike && r.Bool(0.7):
		t.Paper = Pick(r, []string{"#ffffff", "#fbfbf7", "#f6f3ea", "#f2f4f6", "#fffdf0"})
	case sh.name == "screen" && r.Bool(0.3):
		t.Paper = Pick(r, []string{"#1e1f22", "#2b2d31", "#101418"})
		L.ink = "#e8e8ea"
	default:
		t.Paper = pastel(r, r.Range(0.78, 0.95))
	}
	if r.Bool(0.3) {
		t.Paper2 = pastel(r, r.Range(0.75, 0.93))
		t.Gradient = Pick(r, []string{"h", "v", "d"})
	}
	n := r.Weighted([]float64{3, 3, 2, 1})
	for i := 0; i < n; i++ {
		pt := Pattern{Kind: Pick(r, otherPatternKinds), Color: randomAccent(r), Alpha: r.Range(0.06, 0.3),
			Scale: r.Range(0.5, 3) * math.Max(1, L.k), Amp: r.Range(0, 3), N: float64(r.IntRange(4, 24)),
			Angle: r.Range(-90, 90), Width: r.Range(0.05, 0.3)}
		if pt.Kind == "microtext" {
			pt.Text = strings.ToUpper(filler(r, L.lang, 3)) + " "
			pt.Scale = r.Range(0.5, 1.1)
		}
		switch pt.Kind {
		case "noise":
			pt.Alpha = r.Range(0.03, 0.1)
		case "rays", "blobs", "dots":
			pt.Alpha = r.Range(0.04, 0.15)
		}
		if r.Bool(0.4) { // a patch, not the whole sheet
			bw, bh := L.w*r.Range(0.25, 0.8), L.h*r.Range(0.2, 0.7)
			pt.Box = &[4]float64{r.Range(0, L.w-bw), r.Range(0, L.h-bh), bw, bh}
		}
		t.Patterns = append(t.Patterns, pt)
	}
	if r.Bool(0.2) {
		t.Patterns = append(t.Patterns, Pattern{Kind: "border", Color: L.accent, Alpha: r.Range(0.4, 0.9),
			Width: math.Min(L.w, L.h) * r.Range(0.03, 0.07), Scale: r.Range(0.8, 2), Amp: r.Range(0.3, 2), N: float64(r.IntRange(3, 10))})
	}
	if r.Bool(0.25) {
		wd := r.Range(0.3, 1.2)
		t.Elements = append(t.Elements, Element{Kind: "rect", Box: [4]float64{L.x0 / 2, L.x0 / 2, L.w - L.x0, L.h - L.x0}, Color: L.accent, Width: wd})
	}
}

// add appends an element.
func (L *otherLayout) add(e Element) { L.t.Elements = append(L.t.Elements, e) }

// text returns n filler words of the document's language.
func (L *otherLayout) text(n int) string { return filler(L.r, L.lang, n) }

// free is the height left for blocks.
func (L *otherLayout) free() float64 { return L.yEnd - L.y }

// screenFrame draws a phone's status and navigation bars.
func (L *otherLayout) screenFrame() {
	r := L.r
	bar := Pick(r, []string{"#000000", "#f2f2f2", L.accent})
	ink := "#ffffff"
	if bar == "#f2f2f2" {
		ink = "#111111"
	}
	bh := L.h * r.Range(0.035, 0.05)
	L.add(Element{Kind: "rect", Box: [4]float64{0, 0, L.w, bh}, Fill: bar})
	L.add(Element{Kind: "text", Box: [4]float64{2, 0, 20, bh}, Text: fmt.Sprintf("%d:%02d", r.IntRange(7, 23), r.Intn(60)), Size: bh * 0.5, Color: ink, Font: "sans-bold"})
	L.add(Element{Kind: "text", Box: [4]float64{L.w - 22, 0, 20, bh}, Text: fmt.Sprintf("%d%%", r.IntRange(5, 100)), Size: bh * 0.45, Color: ink, Align: "r"})
	if r.Bool(0.6) {
		L.add(Element{Kind: "rect", Box: [4]float64{0, L.h - bh*1.4, L.w, bh * 1.4}, Fill: bar})
		L.yEnd = L.h - bh*1.6
	}
	L.y = bh * 1.3
	L.x0, L.x1 = L.w*0.04, L.w*0.96
}

// header draws the title, optionally on a coloured band, with a logo.
func (L *otherLayout) header() {
	r := L.r
	titles := otherTitles[L.lang]
	title := Pick(r, titles)
	if r.Bool(0.3) {
		title = strings.ToUpper(L.text(r.IntRange(1, 3)))
	}
	size := L.k * r.Range(3.5, 6.5)
	hh := size * r.Range(1.6, 2.4)
	col := L.ink
	align := Pick(r, []string{"c", "c", "l", "r"})
	x0, x1 := L.x0, L.x1
	switch r.Weighted([]float64{1, 1, 1}) {
	case 0: // a coloured band across the top
		L.add(Element{Kind: "rect", Box: [4]float64{0, L.y - L.x0*0.6, L.w, hh + L.x0*0.6}, Fill: L.accent})
		col = "#ffffff"
	case 1: // a rule under the title
		L.add(Element{Kind: "line", Box: [4]float64{L.x0, L.y + hh, L.x1 - L.x0, 0}, Color: L.accent, Width: r.Range(0.2, 1.2)})
	}
	if r.Bool(0.55) { // a logo on one side
		ls := hh * r.Range(1, 1.6)
		lx := L.x0
		if align == "l" || r.Bool(0.3) {
			lx = L.x1 - ls
			x1 -= ls + 2
		} else {
			x0 += ls + 2
		}
		style := Pick(r, []string{"eagle", "sun", "crescent", "star", "star8", "wreath", "chakra", "lily", "trident", "flower", "mountain", "lion", "circle"})
		lc := L.accent
		if col == "#ffffff" {
			lc = "#ffffff"
		}
		L.add(Element{Kind: "emblem", Box: [4]float64{lx, L.y, ls, ls}, Style: style, Color: lc, Fill: lc})
		hh = math.Max(hh, ls)
	}
	L.add(Element{Kind: "text", Box: [4]float64{x0, L.y, x1 - x0, hh}, Text: title, Size: size, Font: L.bold, Color: col, Align: align})
	L.y += hh + size*0.6
	if r.Bool(0.5) { // a subtitle
		s := L.k * r.Range(2.2, 3.2)
		L.add(Element{Kind: "field", Box: [4]float64{L.x0, L.y, L.x1 - L.x0, s * 1.5}, Gen: "words:" + L.lang, Size: s, Font: L.font, Color: L.ink, Align: align})
		L.y += s * 2
	}
}
