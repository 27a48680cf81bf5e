package synth

import (
	"image/color"
	"math"
)

// specimenChance is the share of instances marked as specimens at
// strength 1 (Effects.Specimen). Issuers publish their documents with a
// specimen mark, and most pictures of a document on the web, the ones a
// service is tried on first, are such samples.
const specimenChance = 0.07

// specimenMarks are the words printed across sample documents, by template
// locale: the national word, often beside or instead of the Russian one in
// the CIS; the English word elsewhere.
var specimenMarks = map[string][]string{
	"ru": {"ОБРАЗЕЦ", "ОБРАЗЕЦ", "Образец"},
	"by": {"ОБРАЗЕЦ", "УЗОР"},
	"ua": {"ЗРАЗОК", "ОБРАЗЕЦ"},
	"kz": {"ҮЛГІ", "ОБРАЗЕЦ"},
	"kg": {"ҮЛГҮ", "ОБРАЗЕЦ"},
	"uz": {"NAMUNA", "ОБРАЗЕЦ"},
	"tj": {"НАМУНА", "ОБРАЗЕЦ"},
	"az": {"NÜMUNƏ", "SPECIMEN"},
	"am": {"ՆՄՈՒՇ", "SPECIMEN"},
	"tr": {"ÖRNEKTİR", "NUMUNE"},
	"jp": {"見本"},
}

// specimenDefault is the mark of locales specimenMarks does not list.
var specimenDefault = []string{"SPECIMEN", "SPECIMEN", "SAMPLE"}

// SpecimenWords returns every specimen mark the factory can print (the
// classifier's printed words ignore them; its tests check that).
func SpecimenWords() []string {
	out := append([]string(nil), specimenDefault...)
	for _, ws := range specimenMarks {
		out = append(out, ws...)
	}
	return out
}

// specimenColors are the marks' inks: stamp red, grey, black, blue.
var specimenColors = []color.RGBA{
	{200, 30, 36, 255}, {120, 120, 120, 255}, {24, 24, 24, 255}, {40, 70, 170, 255},
}

// specimenMark draws, with chance strength × specimenChance, a specimen
// word across the document: large, level or diagonal, solid or
// see-through, in the locale's word and a font that has its letters.
func (c *drawCtx) specimenMark(r *Rand, strength float64) {
	if !r.Bool(math.Min(1, strength*specimenChance)) {
		return
	}
	words, ok := specimenMarks[c.t.Locale]
	if !ok {
		words = specimenDefault
	}
	word := Pick(r, words)
	font := Pick(r, []string{"sans-bold", "serif-bold", "arial-bold"})
	if c.t.Locale == "jp" {
		font = "jp"
	}
	if c.t.Locale == "am" && word != "SPECIMEN" {
		font = "arm-bold"
	}
	col := specimenColors[r.Intn(len(specimenColors))]
	col.A = uint8(r.Range(110, 255))
	w, h := c.t.SizeMM[0], c.t.SizeMM[1]
	angle := 0.0
	if r.Bool(0.45) {
		// Along a diagonal.
		angle = -math.Atan2(h, w) * 180 / math.Pi * r.Range(0.7, 1)
	}
	// The word spans a third to two thirds of the width, somewhere around
	// the middle.
	span := w * r.Range(0.35, 0.7)
	size := math.Min(span/float64(len([]rune(word)))*1.45, h*0.3)
	cx := w * r.Range(0.35, 0.65)
	cy := h * r.Range(0.3, 0.7)
	box := [4]float64{cx - span/2, cy - size, span, size * 2}
	c.textBox(word, box, font, size, col, "c", angle, false, size*0.08)
}
