package ppocr

import (
	"context"
	"fmt"
	"image"
	"math"
)

// StepProbs are the recognizer's probabilities for one region, step by
// step, over the classes of a character set: what Recognize decodes
// greedily, kept so that a caller that knows more about the line (its
// exact length) can decode it otherwise.
type StepProbs struct {
	// Rect is the region that was read, in source coordinates.
	Rect image.Rectangle
	// Runes are the classes' characters; Runes[0] is the CTC blank (0).
	Runes []rune
	// Steps is the number of time steps, P their probabilities: row t
	// holds P[t*len(Runes) : (t+1)*len(Runes)].
	Steps int
	P     []float32
}

// RecognizeSteps runs the recognizer on region r of m, resampled to width
// pixels at RecHeight (0: the region's own aspect, as Recognize does; a
// wider input gives each character more steps, which keeps runs of a
// repeated character such as a zone's fillers apart), and returns the
// probabilities of cs's classes at every step.
func (e *Engine) RecognizeSteps(ctx context.Context, m *Image, r image.Rectangle, cs Charset, width int) (*StepProbs, error) {
	r = r.Intersect(m.Bounds()).Sub(m.origin)
	classes := cs.classes
	if classes == nil {
		classes = make([]int, len(e.chars)+1)
		for i := range classes {
			classes[i] = i
		}
	}
	sp := &StepProbs{Rect: r.Add(m.origin), Runes: make([]rune, len(classes))}
	for i, k := range classes {
		if k > 0 {
			sp.Runes[i] = e.chars[k-1]
		}
	}
	if r.Dx() < 2 || r.Dy() < 2 {
		return sp, nil
	}
	w := width
	if w <= 0 {
		w = int(math.Ceil(float64(RecHeight) * float64(r.Dx()) / float64(r.Dy())))
	}
	w = min(max(w, 16), maxRecWidth)
	x := m.tensor(r, w, RecHeight, recMean, recStd)
	out, shape, err := e.rec.Run(ctx, x, 1, 3, RecHeight, int64(w))
	if err != nil {
		return nil, fmt.Errorf("ppocr: recognize: %w", err)
	}
	if len(shape) != 3 || int(shape[2]) != len(e.chars)+1 {
		return nil, fmt.Errorf("ppocr: recognize: output shape %v, want [1 T %d]", shape, len(e.chars)+1)
	}
	n := int(shape[2])
	sp.Steps = int(shape[1])
	if cs.classes == nil {
		sp.P = out[:sp.Steps*n] // every class, in the model's order
		return sp, nil
	}
	sp.P = make([]float32, sp.Steps*len(classes))
	for t := 0; t < sp.Steps; t++ {
		row := out[t*n : (t+1)*n]
		for i, k := range classes {
			sp.P[t*len(classes)+i] = row[k]
		}
	}
	return sp, nil
}

// x is the horizontal centre of step t in source coordinates.
func (s *StepProbs) x(t int) float64 {
	return float64(s.Rect.Min.X) + (float64(t)+0.5)*float64(s.Rect.Dx())/float64(s.Steps)
}

// Greedy decodes the steps as Recognize does: the most probable class at
// each step, repeats merged, blanks dropped.
func (s *StepProbs) Greedy() Line {
	line := Line{Rect: s.Rect}
	c := len(s.Runes)
	prev, sum := 0, 0.0
	runes := make([]rune, 0, s.Steps)
	for t := 0; t < s.Steps; t++ {
		row := s.P[t*c : (t+1)*c]
		best := 0
		for k := 1; k < c; k++ {
			if row[k] > row[best] {
				best = k
			}
		}
		if best != 0 && best != prev {
			ch := Char{Rune: s.Runes[best], Prob: float64(row[best]), X: s.x(t)}
			line.Chars = append(line.Chars, ch)
			runes = append(runes, ch.Rune)
			sum += ch.Prob
		}
		prev = best
	}
	line.Text = string(runes)
	if len(line.Chars) > 0 {
		line.Confidence = sum / float64(len(line.Chars))
	}
	return line
}

// Exact decodes the steps as the most probable CTC path that collapses to
// exactly n characters (a line whose length is known, such as a zone's).
// ok is false when the steps are too few for n characters.
func (s *StepProbs) Exact(n int) (Line, bool) {
	line := Line{Rect: s.Rect}
	c, T := len(s.Runes), s.Steps
	if n <= 0 || T < n {
		return line, n == 0
	}
	lp := make([]float64, len(s.P))
	for i, p := range s.P {
		lp[i] = math.Log(math.Max(float64(p), 1e-12))
	}
	inf := math.Inf(-1)
	// dp[k*c+j]: best log probability of a path over steps 0..t that has
	// emitted k characters and whose step t is class j. back holds, per
	// step, the class of step t-1 on that path (the count follows from
	// the classes).
	dp := make([]float64, (n+1)*c)
	next := make([]float64, (n+1)*c)
	back := make([]int16, T*(n+1)*c)
	for i := range dp {
		dp[i] = inf
	}
	dp[0] = lp[0]
	for j := 1; j < c; j++ {
		dp[1*c+j] = lp[j]
	}
	for t := 1; t < T; t++ {
		row := lp[t*c : (t+1)*c]
		bk := back[t*(n+1)*c:]
		for k := 0; k <= n; k++ {
			cur := dp[k*c : (k+1)*c]
			// Best and second best class at count k-1 (a new character
			// may follow any class but itself).
			b1, b2 := -1, -1
			if k > 0 {
				prev := dp[(k-1)*c : k*c]
				for j := range prev {
					switch {
					case b1 < 0 || prev[j] > prev[b1]:
						b1, b2 = j, b1
					case b2 < 0 || prev[j] > prev[b2]:
						b2 = j
					}
				}
			}
			// Blank: any class at the same count.
			bb := 0
			for j := range cur {
				if cur[j] > cur[bb] {
					bb = j
				}
			}
			nx := next[k*c : (k+1)*c]
			nx[0], bk[k*c] = cur[bb]+row[0], int16(bb)
			for j := 1; j < c; j++ {
				best, from := cur[j], j // the same character goes on
				if k > 0 {
					o := b1
					if o == j {
						o = b2
					}
					if o >= 0 && dp[(k-1)*c+o] > best {
						best, from = dp[(k-1)*c+o], o
					}
				}
				nx[j], bk[k*c+j] = best+row[j], int16(from)
			}
		}
		dp, next = next, dp
	}
	end := 0
	for j := range c {
		if dp[n*c+j] > dp[n*c+end] {
			end = j
		}
	}
	if math.IsInf(dp[n*c+end], -1) {
		return line, false
	}
	// Walk back: the class at each step and the count before it.
	path := make([]int, T)
	k, j := n, end
	for t := T - 1; t >= 0; t-- {
		path[t] = j
		if t == 0 {
			break
		}
		from := int(back[t*(n+1)*c+k*c+j])
		if j != 0 && from != j {
			k--
		}
		j = from
	}
	sum := 0.0
	runes := make([]rune, 0, n)
	for t, j := range path {
		if j == 0 || (t > 0 && path[t-1] == j) {
			continue
		}
		ch := Char{Rune: s.Runes[j], Prob: float64(s.P[t*c+j]), X: s.x(t)}
		line.Chars = append(line.Chars, ch)
		runes = append(runes, ch.Rune)
		sum += ch.Prob
	}
	line.Text = string(runes)
	line.Confidence = sum / float64(len(line.Chars))
	return line, len(line.Chars) == n
}
