package extract

import (
	"testing"

	"docsuite/pkg/ocr"
)

// word is a word read by Tesseract at x with height h (top at 0).
func word(text string, conf float64, x, h int) ocr.Word {
	return ocr.Word{Text: text, Confidence: conf, Coords: [4][2]int{{x, 0}, {x + 40, 0}, {x, h}, {x + 40, h}}}
}

// The caption filter keeps the value's words and drops the small,
// unsure captions beside them, whatever else the region catches.
func TestValueWords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		words []ocr.Word
		want  string
	}{
		{"value and caption", []ocr.Word{word("Фамилия", 0.4, 0, 12), word("ЮДИНА", 0.96, 200, 43)}, "ЮДИНА"},
		{"small confident caption", []ocr.Word{word("ИМЯ", 0.8, 0, 12), word("КСЕНИЯ", 0.97, 200, 40)}, "КСЕНИЯ"},
		// seed 20261123's ninth scan: the portrait frame's edge read as a
		// tall, fairly sure Г set the reference height and dropped the name.
		{"tall single letter beside the value", []ocr.Word{word("Г", 0.52, 0, 73), word("ЮДИНА", 0.96, 291, 43)}, "Г ЮДИНА"},
		{"single letters only", []ocr.Word{word("Г", 0.8, 0, 40), word("П", 0.2, 100, 40)}, "Г"},
		{"date scored low", []ocr.Word{word("24.06.1989", 0.1, 0, 40)}, "24.06.1989"},
		{"nothing sure", []ocr.Word{word("ОВ", 0.3, 0, 40)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := valueWords([]ocr.Line{{Words: tc.words}}, 0.7, 0.5)
			if got != tc.want {
				t.Errorf("valueWords = %q, want %q", got, tc.want)
			}
		})
	}
}
