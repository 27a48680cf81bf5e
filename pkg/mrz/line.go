package mrz

import (
	"context"
	"fmt"
	"image"
	"math"
	"strings"

	"docsuite/pkg/ppocr"
)

// recStretch widens a line's image before recognition. The recogniser
// gives one step to every eight pixels of its 48-pixel-high input, and a
// zone line's detected box is two to three and a half character pitches
// high, which leaves under two steps a character at the line's own
// aspect: too few to keep a run of fillers apart (each '<' needs a blank
// step after it) or to keep thin letters, so both were lost. Twice the
// width gives three to five steps a character.
const recStretch = 2

// zoneLine is one candidate line of a zone: its greedy reading and the
// recogniser's step probabilities, kept to decode it again at the length
// a layout requires.
type zoneLine struct {
	greedy ppocr.Line
	steps  *ppocr.StepProbs
}

// blurStretch is the widening of the second reading of a zone that does
// not verify at recStretch (Reader.WithSecondReading): a blurred line
// widened twice smears its fillers into letters' shapes (C, K, E, 4) and
// runs characters together; at its own width it is often read right. On
// the factory's photos of seed 20261124 (100 passports) it verified 4
// more zones (80 to 84) and 3 more lines exact; 1.5 verified 3.
const blurStretch = 1

// readLine recognises region r of m, widened stretch times.
func (r *Reader) readLine(ctx context.Context, m *ppocr.Image, rect image.Rectangle, stretch float64) (zoneLine, error) {
	rect = rect.Intersect(m.Bounds())
	w := 0
	if rect.Dy() > 0 {
		w = int(math.Ceil(stretch * ppocr.RecHeight * float64(rect.Dx()) / float64(rect.Dy())))
	}
	sp, err := r.e.RecognizeSteps(ctx, m, rect, r.cs, w)
	if err != nil {
		return zoneLine{}, fmt.Errorf("mrz: %w", err)
	}
	return zoneLine{greedy: sp.Greedy(), steps: sp}, nil
}

// fit returns the line's reading with length characters when one is near:
// the greedy reading when it has that count, else the most probable
// reading of exactly length characters (the zone's lines have a fixed
// length, so a filler merged into its neighbour or a letter dropped is
// put back where the recogniser's steps say it most likely was). A
// reading far from length is returned as it is, for the layout to reject.
func (z zoneLine) fit(length int) ppocr.Line {
	n := len(z.greedy.Chars)
	if n == length || n*10 < length*6 || n*10 > length*11 {
		return z.greedy
	}
	if l, ok := z.steps.Exact(length); ok {
		return l
	}
	return z.greedy
}

// rechoose re-chooses by kind (see byKind) the characters of texts, the
// lines laid on the grid, and counts the changes. The first line's
// document code and issuer go first: they decide the kinds of the rest (a
// Russian internal passport's names hold digits).
func rechoose(f Format, zl []zoneLine, lines []ppocr.Line, texts []string) int {
	changed := 0
	if len(texts[0]) > 5 {
		k := kinds(f, texts)[0]
		k = k[:5] + strings.Repeat("*", len(k)-5)
		var c int
		texts[0], c = zl[0].byKind(lines[0], texts[0], k)
		changed += c
	}
	for i, k := range kinds(f, texts) {
		var c int
		texts[i], c = zl[i].byKind(lines[i], texts[i], k)
		changed += c
	}
	return changed
}

// byKind re-chooses, from the recogniser's steps, the characters of text
// (l's reading laid on the grid) that cannot stand where they are (kind as kinds gives it): where a letter is
// required, the most probable letter at the character's step; where a
// digit is, the most probable digit; where the sex is, the more probable
// of M, F and X (a blurred M is read as N or L; a Russian name's position, which
// may hold either, is left to fixTypes' table). The steps know better than a fixed
// table of look-alikes which letter a misread digit was. Only a reading
// of one character a position (as long as kind) is re-chosen; any other
// text is returned as it is.
func (z zoneLine) byKind(l ppocr.Line, text, kind string) (string, int) {
	sp := z.steps
	if len(l.Chars) != len(kind) || len(text) != len(kind) || sp == nil || sp.Steps == 0 || sp.Rect.Dx() == 0 {
		return text, 0
	}
	allowed := map[byte]func(rune) bool{
		'a': func(r rune) bool { return r >= 'A' && r <= 'Z' },
		'n': func(r rune) bool { return r >= '0' && r <= '9' },
		'x': func(r rune) bool { return r == 'M' || r == 'F' || r == 'X' },
	}
	out := []rune(text)
	changed := 0
	c := len(sp.Runes)
	for i, ch := range l.Chars {
		ok, has := allowed[kind[i]]
		if !has || ch.Rune == Filler || ok(ch.Rune) {
			continue
		}
		t := int(math.Round((ch.X-float64(sp.Rect.Min.X))*float64(sp.Steps)/float64(sp.Rect.Dx()) - 0.5))
		if t < 0 || t >= sp.Steps {
			continue
		}
		row := sp.P[t*c : (t+1)*c]
		best := -1
		for k, r := range sp.Runes {
			if k > 0 && ok(r) && (best < 0 || row[k] > row[best]) {
				best = k
			}
		}
		if best > 0 {
			out[i] = sp.Runes[best]
			changed++
		}
	}
	return string(out), changed
}
