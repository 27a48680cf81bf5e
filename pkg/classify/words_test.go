package classify

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/synth"
)

var updateWords = flag.Bool("update-words", false, "rewrite typewords.json from the factory's templates")

// templateWords collects, sorted, the folded words the templates print:
// their static texts and the captions of their fields.
func templateWords(tpls ...*synth.Template) []string {
	set := map[string]bool{}
	for _, tpl := range tpls {
		for _, e := range tpl.Elements {
			var texts []string
			if e.Kind == "text" {
				texts = append(texts, e.Text)
			}
			if e.Label != "" {
				texts = append(texts, e.Label)
			}
			for _, text := range texts {
				for _, w := range SplitWords(text) {
					if f := Fold(w); countsAsWord(f) {
						set[f] = true
					}
				}
			}
		}
	}
	return sortedKeys(set)
}

// valueDraws is how many documents of each type valueWords draws.
const valueDraws = 200

// valueWords collects, per family, the words the factory prints as field
// values on valueDraws documents of each catalogue type, and those the
// templates of documents outside the catalogue print.
func valueWords(cat *synth.Catalogue) (map[string][]string, []string) {
	fams := map[string]map[string]bool{}
	other := map[string]bool{}
	add := func(set map[string]bool, tpl *synth.Template) {
		for _, v := range tpl.PrintedValues(1, valueDraws) {
			for _, w := range SplitWords(v) {
				if f := Fold(w); countsAsWord(f) {
					set[f] = true
				}
			}
		}
	}
	for _, typ := range cat.Types() {
		tpl, _ := cat.Get(typ)
		switch {
		case typ == doctypes.Other:
			for _, v := range tpl.Variants {
				if b, ok := cat.Get(v); ok {
					add(other, b)
				}
			}
		case !doctypes.IsSpecial(typ):
			f := doctypes.Family(typ)
			if fams[f] == nil {
				fams[f] = map[string]bool{}
			}
			for _, l := range cat.Layouts(tpl) {
				add(fams[f], l)
			}
		}
	}
	out := map[string][]string{}
	for f, set := range fams {
		if len(set) > 0 {
			out[f] = sortedKeys(set)
		}
	}
	return out, sortedKeys(other)
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// printsEdgeNumber reports whether a template prints a passport's series
// and number on its side in the right fifth of the document.
func printsEdgeNumber(tpl *synth.Template) bool {
	for _, e := range tpl.Elements {
		field := e.Field == "series_and_number" || e.Gen == "series_and_number"
		turned := e.Rotate == 90 || e.Rotate == -90 || e.Rotate == 270
		if field && turned && e.Box[0]+e.Box[2]/2 > 0.8*tpl.SizeMM[0] {
			return true
		}
	}
	return false
}

// TestTypeWordsMatchTemplates rebuilds the word table from the factory's
// templates and requires the shipped typewords.json to be the same
// (go test ./pkg/classify -run TestTypeWordsMatchTemplates -update-words
// rewrites it).
func TestTypeWordsMatchTemplates(t *testing.T) {
	cat, err := synth.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	want := typeWordsFile{Types: map[string][]string{},
		Comment: "Words each catalogue type prints, and words documents outside the catalogue print; folded (classify.Fold). Written by go test ./pkg/classify -run TestTypeWordsMatchTemplates -update-words from pkg/synth/templates; values from 200 documents of each type drawn by the factory (synth.Template.PrintedValues, seed 1)."}
	other := map[string]bool{}
	for _, typ := range cat.Types() {
		tpl, _ := cat.Get(typ)
		if typ == doctypes.Other {
			for _, v := range tpl.Variants {
				if b, ok := cat.Get(v); ok {
					for _, w := range templateWords(b) {
						other[w] = true
					}
				}
			}
			continue
		}
		if doctypes.IsSpecial(typ) {
			continue
		}
		if ws := templateWords(cat.Layouts(tpl)...); len(ws) > 0 {
			want.Types[typ] = ws
		}
		if printsEdgeNumber(tpl) {
			want.EdgeNumber = append(want.EdgeNumber, typ)
		}
	}
	sort.Strings(want.EdgeNumber)
	for w := range other {
		want.Other = append(want.Other, w)
	}
	sort.Strings(want.Other)
	want.Values, want.OtherValues = valueWords(cat)
	if *updateWords {
		b, err := json.MarshalIndent(want, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("typewords.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got typeWordsFile
	if err := json.Unmarshal(typeWordsJSON, &got); err != nil {
		t.Fatal(err)
	}
	if !*updateWords && !reflect.DeepEqual(got, want) {
		t.Fatalf("typewords.json differs from the templates' words: run go test ./pkg/classify -run TestTypeWordsMatchTemplates -update-words")
	}
}

func TestFold(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Паспорт", "ПАСПОРТ"},
		{"ВЫДАН:", "ВЫДАН"},
		{"Ёлкин", "ЕЛКИН"},
		{"KOД", "КОД"}, // Latin K and O read inside a Cyrillic word
		{"Surname", "SURNАМЕ"},
		{"12.05", ""},
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestScoreNamesTheTitlesType reads a few titles, some with OCR's usual
// slips, and requires the family of the type that prints them to score
// highest (variants of one family score alike).
func TestScoreNamesTheTitlesType(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, want string
	}{
		{"Российская Федерация СТРАХОВОЕ СВИДЕТЕЛЬСТВО ОБЯЗАТЕЛЬНОГО ПЕНСИОННОГО СТРАХОВАНИЯ", "snils_front"},
		{"СТРАХОВОЕ СВИДЕТЕЛЬСТВ0 ОБЯЗАТЕЛЬНОГ0 ПЕНСИОНН0ГО", "snils_front"},
		{"PAKISTAN PASSPORT Islamic Republic of Pakistan", "pak_passport_2013_main"},
	} {
		s := tw.Score(SplitWords(c.text))
		best, bestV := "", 0.0
		for typ, v := range s.Matched {
			if v > bestV {
				best, bestV = typ, v
			}
		}
		if doctypes.Family(best) != doctypes.Family(c.want) {
			t.Errorf("%q: best %s (%.2f), want %s (%.2f)", c.text, best, bestV, c.want, s.Matched[c.want])
		}
	}
}

// shippedWords loads the word table and the weights the classifier ships.
func shippedWords(t *testing.T) (*TypeWords, WordWeights) {
	t.Helper()
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	w, err := LoadWordWeights()
	if err != nil {
		t.Fatal(err)
	}
	return tw, w
}

// TestApplyWords checks what the shipped weights do with a picture that is
// confidently wrong: a document's title read in full overrules it, a page
// of words no template prints moves it to other, and no words leave the
// picture's choice.
func TestApplyWords(t *testing.T) {
	tw, w := shippedWords(t)
	classes := []string{"snils_front", "ukr_id_2016_back", doctypes.Other, doctypes.NotDocument, doctypes.Empty}
	picture := []float64{0.01, 0.96, 0.01, 0.01, 0.01}
	invoice := SplitWords(strings.Repeat("INVOICE Bill to Ship to Quantity Description Unit price Amount Subtotal Total due Payment terms ", 4))
	for _, c := range []struct {
		name  string
		words []string
		want  string
	}{
		{"title", SplitWords("Российская Федерация СТРАХОВОЕ СВИДЕТЕЛЬСТВО ОБЯЗАТЕЛЬНОГО ПЕНСИОННОГО СТРАХОВАНИЯ"), "snils_front"},
		{"foreign page", invoice, doctypes.Other},
		{"nothing read", nil, "ukr_id_2016_back"},
	} {
		p := tw.ApplyWords(w, classes, picture, tw.Score(c.words))
		if got := classes[argmaxOf(p)]; got != c.want {
			t.Errorf("%s: %s (%.2f), want %s", c.name, got, p, c.want)
		}
	}
}

// TestEdgeNumberCountsForPassportPages checks what the shipped weights do
// with the edge number (a Russian passport's series and number read
// along the right edge): a picture that takes a real passport's photo page
// for a CIS passport turns to the passport page the picture likes best,
// the number speaks for no other type, and without it the picture stands.
func TestEdgeNumberCountsForPassportPages(t *testing.T) {
	tw, w := shippedWords(t)
	classes := []string{"kgz_passport_2006_main", "passport_main", "passport_registration", "driver_license_2011_front", doctypes.Other}
	picture := []float64{0.6, 0.04, 0.01, 0.05, 0.3}
	if !tw.PrintsEdgeNumber("passport_main") || !tw.PrintsEdgeNumber("passport_registration") ||
		tw.PrintsEdgeNumber("kgz_passport_2006_main") || tw.PrintsEdgeNumber("driver_license_2011_front") {
		t.Fatal("edge number types: want the Russian passport's pages alone")
	}
	apply := func(edge bool) []float64 {
		return tw.ApplyWords(w, classes, picture, tw.ScoreEvidence(nil, edge))
	}
	with, without := apply(true), apply(false)
	if got := classes[argmaxOf(with)]; got != "passport_main" {
		t.Errorf("number read: %s (%.2f), want passport_main", got, with)
	}
	if got := classes[argmaxOf(without)]; got != "kgz_passport_2006_main" {
		t.Errorf("no number: %s (%.2f), want kgz_passport_2006_main", got, without)
	}
	// Between types that do not print it, the number changes nothing.
	if r0, r1 := without[3]/without[0], with[3]/with[0]; math.Abs(r1/r0-1) > 1e-9 {
		t.Errorf("the number moved the driving licence against the Kyrgyz passport: %.4g -> %.4g", r0, r1)
	}
}

func argmaxOf(p []float64) int {
	b := 0
	for i := range p {
		if p[i] > p[b] {
			b = i
		}
	}
	return b
}

// TestKnownAndFamiliar checks which read words are a template's words
// (Known) and which tell a crop was read the right way up (Familiar): a
// template's words, the factory's values, and real holders' first names
// and patronymics, which the factory does not print; the same lines read
// upside down or mirrored are neither.
func TestKnownAndFamiliar(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		word            string
		known, familiar bool
	}{
		{"СВИДЕТЕЛЬСТВО", true, true}, // a title
		{"СВИЛЕТЕЛЬСТВО", true, true}, // one letter misread
		{"Passport", true, true},
		{"ОВТСЬЛЕТЕДИВС", false, false}, // the same letters read backwards, as a mirrored line gives them
		{"Москва", true, true},          // a value the factory prints (and the Moscow card's title)
		{"ЛЕОНИД", false, true},         // a first name the factory does not print
		{"Семён", false, true},          // Ё folds to Е
		{"БОРИСОВИЧ", false, true},      // a patronymic the factory does not print
		{"Ильинична", false, true},
		{"РОБМСОВМЯ", false, false}, // БОРИСОВИЧ read off a page flipped top to bottom
		{"UEOHN", false, false},     // ЛЕОНИД so flipped
		{"KObOKOB", false, false},
		{"ЛОВИЧ", false, false}, // too short to end like a patronymic
		{"ЛЕВ", false, true},
		{"ИЗ", false, false}, // too short to count
	} {
		if got := tw.Known(c.word); got != c.known {
			t.Errorf("Known(%q) = %v, want %v", c.word, got, c.known)
		}
		if got := tw.Familiar(c.word); got != c.familiar {
			t.Errorf("Familiar(%q) = %v, want %v", c.word, got, c.familiar)
		}
	}
}

// TestScoreUnknownWords checks which words read count as legible (Read)
// and which of those, printed by no template, speak for a document
// outside the catalogue (Unknown): real Russian and English words the
// dictionary holds, not a holder's first name or patronymic; a surname no
// dictionary lists and what OCR reads out of a noisy photograph
// (gibberish, or three letters that fold into some abbreviation) are not
// even read. The words are a real passport page's values and what
// Tesseract read on real photos of passports and forms.
func TestScoreUnknownWords(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		words         []string
		read, unknown int
	}{
		{"template words", []string{"ПАСПОРТ", "РОССИЙСКАЯ", "ФЕДЕРАЦИЯ"}, 3, 0},
		{"first name and patronymic", []string{"ЛЕОНИД", "ЯРОСЛАВОВНА"}, 2, 0},
		{"surname no dictionary lists", []string{"КОРОКОВ"}, 0, 0},
		{"a town", []string{"ДЗЕРЖИНСК"}, 1, 1},
		{"Russian words of a form", []string{"паевые", "нынче", "квитанция"}, 3, 3},
		{"English words", []string{"TORTS", "weather", "this"}, 3, 3},
		{"gibberish", []string{"оатетататотаитато", "Иллитафакачвонный", "iohisoaiour", "ececeeeccee"}, 0, 0},
		{"specimen marks", []string{"ОБРАЗЕЦ", "SPECIMEN", "Зразок", "NAMUNA"}, 0, 0},
		{"three letters out of noise", []string{"ООВ", "НБА", "оао"}, 0, 0},
		{"captions misread into short words", []string{"Лата", "ГОДЫ"}, 0, 0},
		{"short words no caption is near", []string{"воск", "шуба"}, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tw.Score(tc.words)
			if s.Read != tc.read || s.Unknown != tc.unknown {
				t.Errorf("read %d, unknown %d; want %d and %d", s.Read, s.Unknown, tc.read, tc.unknown)
			}
		})
	}
}

// TestScoreIgnoresFactorySpecimenMarks keeps the words the printed words
// ignore as specimen marks equal to what the factory prints: every mark
// long enough to be scored is neither read nor unknown.
func TestScoreIgnoresFactorySpecimenMarks(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range synth.SpecimenWords() {
		if !countsAsWord(Fold(w)) {
			continue
		}
		if s := tw.Score([]string{w}); s.Read != 0 || s.Unknown != 0 {
			t.Errorf("specimen mark %q: read %d, unknown %d; want it ignored (specimenWords)", w, s.Read, s.Unknown)
		}
	}
}

// TestScoreValues reads what the values of a Russian passport's fields
// look like: a name, a patronymic, a town and the issuing office are no
// template's words, but they are not unknown words either; they speak for
// the printed passport_main, and not for its handwritten variant, whose
// values OCR cannot be expected to read.
func TestScoreValues(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	s := tw.Score(SplitWords("ОТДЕЛОМ ВНУТРЕННИХ ДЕЛ ОКТЯБРЬСКОГО ОКРУГА ГОРОДА АРХАНГЕЛЬСКА ЕВГЕНИЙ АЛЕКСАНДРОВИЧ гор. Архангельск"))
	if s.Unknown != 0 {
		t.Errorf("%d of %d words unknown, want none", s.Unknown, s.Read)
	}
	best, bestV := "", 0.0
	for typ, v := range s.Values {
		if v > bestV {
			best, bestV = typ, v
		}
	}
	if best != "passport_main" {
		t.Errorf("values speak most for %s (%.2f), want passport_main (%.2f)", best, bestV, s.Values["passport_main"])
	}
	if v := s.Values["passport_main_handwritten"]; v != 0 {
		t.Errorf("handwritten passport_main_handwritten scores %.2f on printed values, want 0", v)
	}
	if u := tw.Score(SplitWords("Quantity Subtotal Shipping Warehouse")).Unknown; u != 4 {
		t.Errorf("an invoice's words: %d unknown, want 4", u)
	}
}

// A holder's first name and patronymic the factory never prints (its
// names are few on purpose) still speak for the types whose fields hold
// names, as one of the factory's names does, and not for a handwritten
// form or a document printing no names; a word that merely ends like a
// patronymic but is too short, or a surname, counts for nothing.
func TestScoreNamesTheFactoryNeverPrints(t *testing.T) {
	tw, err := LoadTypeWords()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"ЛЕОНИД", "ЯРОСЛАВОВНА"} {
		if k := tw.values.match(w); k != "" {
			t.Fatalf("%s matches the factory's value %s: pick a name it does not print", w, k)
		}
	}
	unseen := tw.Score(SplitWords("ЛЕОНИД ЯРОСЛАВОВНА"))
	factory := tw.Score(SplitWords("АЛЕКСАНДР АЛЕКСАНДРОВИЧ"))
	for _, typ := range []string{"passport_main", "snils_front", "driver_license_2011_front"} {
		if unseen.Values[typ] <= 0 || math.Abs(unseen.Values[typ]-factory.Values[typ]) > 0.5*factory.Values[typ] {
			t.Errorf("%s: unseen names score %.2f, the factory's %.2f; want near", typ, unseen.Values[typ], factory.Values[typ])
		}
	}
	for _, typ := range []string{"passport_main_handwritten", "bank_card", "ind_passport_2008_main", doctypes.Other} {
		if v := unseen.Values[typ]; v != 0 {
			t.Errorf("%s scores %.2f on printed Russian names, want 0", typ, v)
		}
	}
	if unseen.Read != 2 || unseen.Unknown != 0 {
		t.Errorf("read %d, unknown %d; want 2 and 0", unseen.Read, unseen.Unknown)
	}
	if s := tw.Score(SplitWords("ИВИЧ КОРОКОВ")); len(s.Values) != 0 {
		t.Errorf("a short ending and a surname score %v, want nothing", s.Values)
	}
}
