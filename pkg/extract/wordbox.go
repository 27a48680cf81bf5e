package extract

import (
	"image"
	"strings"

	"docsuite/pkg/ocr"
)

// wordsBox is where want is printed among a line's words: the box of the
// fewest consecutive words whose text, spaces left out, holds want
// (spaces left out too). It places each of two fields printed side by
// side on one line (a stamp's code and date, the sex and the birth date)
// on its own words instead of the line they share. ok is false when no
// run of words holds want.
func wordsBox(words []ocr.Word, want string) (image.Rectangle, bool) {
	want = strings.ToUpper(strings.ReplaceAll(want, " ", ""))
	if want == "" {
		return image.Rectangle{}, false
	}
	best, found := image.Rectangle{}, false
	bestLen := len(words) + 1
	for i := range words {
		var run strings.Builder
		for j := i; j < len(words) && j-i+1 < bestLen; j++ {
			run.WriteString(strings.ToUpper(strings.ReplaceAll(words[j].Text, " ", "")))
			if !strings.Contains(run.String(), want) {
				continue
			}
			box := wordBox(words[i])
			for _, w := range words[i+1 : j+1] {
				box = box.Union(wordBox(w))
			}
			best, found, bestLen = box, true, j-i+1
			break
		}
	}
	return best, found
}

// wordBox is the rectangle of a word's four corners.
func wordBox(w ocr.Word) image.Rectangle {
	return image.Rect(w.Coords[0][0], w.Coords[0][1], w.Coords[3][0], w.Coords[3][1])
}
