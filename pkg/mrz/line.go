package mrz

import (
	"context"
	"fmt"
	"image"
	"math"

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

// readLine recognises region r of m, stretched by recStretch.
func (r *Reader) readLine(ctx context.Context, m *ppocr.Image, rect image.Rectangle) (zoneLine, error) {
	rect = rect.Intersect(m.Bounds())
	w := 0
	if rect.Dy() > 0 {
		w = int(math.Ceil(recStretch * ppocr.RecHeight * float64(rect.Dx()) / float64(rect.Dy())))
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
