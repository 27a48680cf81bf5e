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
			box := cornersBox(words[i].Coords)
			for _, w := range words[i+1 : j+1] {
				box = box.Union(cornersBox(w.Coords))
			}
			best, found, bestLen = box, true, j-i+1
			break
		}
	}
	return best, found
}

// cornersBox is the rectangle from the first of four corners (TL, TR,
// BL, BR: a word's or a line's) to the last.
func cornersBox(c [4][2]int) image.Rectangle {
	return image.Rect(c[0][0], c[0][1], c[3][0], c[3][1])
}
