package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"docsuite/pkg/classify"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/prob"
)

// floors are the picture floors tried; the fit keeps the one with the
// least loss.
var floors = []float64{1e-2, 1e-3, 1e-4, 1e-6}

// nWeights is the number of fitted weights (WordWeights without the floor
// and the edge number's weight, see edgeWeight).
const nWeights = 7

// features returns, per class, the terms ApplyWords weighs: the log of the
// floored picture probability, the matched weight M, the share M/T, the
// other and non-document terms, the field values' weight V, and the
// unknown words' share U/R (for other); and, apart, the edge number's
// term weighted by edge.
func features(tw *classify.TypeWords, classes []string, r reading, floor, edge float64) ([][nWeights]float64, []float64) {
	w := classify.WordWeights{PictureFloor: floor}
	out := make([][nWeights]float64, len(classes))
	s := r.score(tw)
	for k := range nWeights {
		var unit [nWeights]float64
		unit[k] = 1
		w.Picture, w.Matched, w.Share, w.OtherUnknown, w.NonDocRead, w.Values, w.OtherShare = unit[0], unit[1], unit[2], unit[3], unit[4], unit[5], unit[6]
		z := tw.Logits(w, classes, r.P, s)
		for i := range classes {
			out[i][k] = z[i]
		}
	}
	offset := tw.Logits(classify.WordWeights{PictureFloor: floor, EdgeNumber: edge}, classes, r.P, s)
	return out, offset
}

func weightsOf(v [nWeights]float64, floor, edge float64) classify.WordWeights {
	return classify.WordWeights{Picture: v[0], Matched: v[1], Share: v[2], OtherUnknown: v[3], NonDocRead: v[4], Values: v[5], OtherShare: v[6], EdgeNumber: edge, PictureFloor: floor}
}

// edgeWeight is the edge number's weight: the log of the likelihood
// ratio of reading it on a type that prints it against any other crop,
// with one read and one miss added to each count. It is measured, not
// fitted with the others: on the factory's crops the picture already
// tells a Russian passport's pages, so a joint fit learns the number is
// redundant (0.68 on the sets of scripts/models.sh); docnet's 96 pixels
// cannot read digits, so the number's evidence is independent of the
// picture's, and it is a real photograph's picture that goes wrong.
func edgeWeight(tw *classify.TypeWords, rs []reading) float64 {
	var hits, n [2]float64 // [prints it, does not]
	for _, r := range rs {
		k := 1
		if tw.PrintsEdgeNumber(r.Type) {
			k = 0
		}
		n[k]++
		if r.Edge {
			hits[k]++
		}
	}
	return math.Log((hits[0]+1)/(n[0]+2)) - math.Log((hits[1]+1)/(n[1]+2))
}

// swapPictures returns rs followed, for a share q of them (drawn with
// seed), by a copy whose picture probabilities are those of a reading of
// another family: docnet sure and wrong, as it is on many real
// photographs, where the words must decide. With q = 1 every reading gets
// its copy; q = 0 returns rs.
func swapPictures(rs []reading, q float64, seed uint64) []reading {
	if q <= 0 || len(rs) < 2 {
		return rs
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	out := append([]reading(nil), rs...)
	for _, r := range rs {
		if rng.Float64() >= q {
			continue
		}
		for range 100 {
			o := rs[rng.IntN(len(rs))]
			if doctypes.Family(o.Type) != doctypes.Family(r.Type) {
				r.P = o.P
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// sharpen returns w with every weight scaled by the one factor that
// gives the true classes of rs the least loss: temperature scaling of the
// words' revision. The answers stay; their confidence moves. A fit on
// swapped pictures (swapPictures) learns from crops whose picture lies and
// so answers the crops whose picture is right too unsurely: sharpened on
// the readings as read, its confidence is calibrated again there.
func sharpen(tw *classify.TypeWords, classes []string, rs []reading, w classify.WordWeights) (classify.WordWeights, float64) {
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	zs := make([][]float64, len(rs))
	ys := make([]int, len(rs))
	for n, r := range rs {
		zs[n], ys[n] = tw.Logits(w, classes, r.P, r.score(tw)), index[r.Type]
	}
	loss := func(f float64) float64 {
		sum := 0.0
		z := make([]float64, len(classes))
		for n := range zs {
			for i := range z {
				z[i] = f * zs[n][i]
			}
			sum -= math.Log(max(prob.Softmax(z)[ys[n]], 1e-300))
		}
		return sum / float64(len(zs))
	}
	// Golden-section search: the loss is convex in the factor.
	a, b := 0.25, 8.0
	g := (math.Sqrt(5) - 1) / 2
	for range 60 {
		c, d := b-g*(b-a), a+g*(b-a)
		if loss(c) < loss(d) {
			b = d
		} else {
			a = c
		}
	}
	f := (a + b) / 2
	w.Picture, w.Matched, w.Share, w.OtherUnknown = f*w.Picture, f*w.Matched, f*w.Share, f*w.OtherUnknown
	w.NonDocRead, w.Values, w.OtherShare, w.EdgeNumber = f*w.NonDocRead, f*w.Values, f*w.OtherShare, f*w.EdgeNumber
	return w, f
}

// dropUnsure returns copies of rs without the words read at a confidence
// under c that no template prints and no field holds
// (classify.TypeWords.Familiar): what Tesseract makes of a background's
// pattern. Readings cached without confidences are left as they are.
func dropUnsure(tw *classify.TypeWords, rs []reading, c float64) []reading {
	if c <= 0 {
		return rs
	}
	out := make([]reading, len(rs))
	for i, r := range rs {
		out[i] = r
		if len(r.Conf) != len(r.Words) {
			continue
		}
		out[i].Words, out[i].Conf = nil, nil
		for k, w := range r.Words {
			if r.Conf[k] >= c || tw.Familiar(w) {
				out[i].Words = append(out[i].Words, w)
				out[i].Conf = append(out[i].Conf, r.Conf[k])
			}
		}
	}
	return out
}

// score is what the classifier weighs of a reading: its words' score and
// the edge number.
func (r reading) score(tw *classify.TypeWords) classify.WordScore {
	return tw.ScoreEvidence(r.Words, r.Edge)
}

// fit maximises the likelihood of the true classes (softmax over the
// classes of the weighted terms, a little L2 on the weights) with Adam,
// for each floor, and returns the best.
func fit(tw *classify.TypeWords, classes []string, rs []reading) classify.WordWeights {
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	best, bestLoss := classify.WordWeights{}, math.Inf(1)
	edge := edgeWeight(tw, rs)
	fmt.Printf("edge number: weight %.3f\n", edge)
	for _, floor := range floors {
		feats := make([][][nWeights]float64, len(rs))
		offsets := make([][]float64, len(rs))
		ys := make([]int, len(rs))
		for n, r := range rs {
			feats[n], offsets[n] = features(tw, classes, r, floor, edge)
			ys[n] = index[r.Type]
		}
		w := [nWeights]float64{1}
		var m, v [nWeights]float64
		var loss float64
		for it := 1; it <= 2000; it++ {
			var g [nWeights]float64
			loss = 0
			for n, f := range feats {
				q := softmax(f, w, offsets[n])
				loss -= math.Log(max(q[ys[n]], 1e-300))
				for i := range f {
					y := 0.0
					if i == ys[n] {
						y = 1
					}
					for k := range w {
						g[k] += (q[i] - y) * f[i][k]
					}
				}
			}
			loss /= float64(len(feats))
			for k := range w {
				g[k] = g[k]/float64(len(feats)) + 1e-3*w[k]
				m[k] = 0.9*m[k] + 0.1*g[k]
				v[k] = 0.999*v[k] + 0.001*g[k]*g[k]
				mh := m[k] / (1 - math.Pow(0.9, float64(it)))
				vh := v[k] / (1 - math.Pow(0.999, float64(it)))
				w[k] -= 0.05 * mh / (math.Sqrt(vh) + 1e-8)
			}
		}
		fmt.Printf("floor %g: loss %.4f, weights %.3f\n", floor, loss, w)
		if loss < bestLoss {
			best, bestLoss = weightsOf(w, floor, edge), loss
		}
	}
	return best
}

func softmax(f [][nWeights]float64, w [nWeights]float64, offset []float64) []float64 {
	z := make([]float64, len(f))
	for i := range f {
		z[i] = offset[i]
		for k := range w {
			z[i] += w[k] * f[i][k]
		}
	}
	return prob.Softmax(z)
}

// report prints the type accuracy of the picture alone and with the words,
// overall and on the special classes.
func report(name string, tw *classify.TypeWords, classes []string, rs []reading, w classify.WordWeights) {
	var n, pic, words, other, otherPic, otherWords, turned, upright int
	var cal calibration
	edge := map[bool][2]int{} // printing the edge number -> read, crops
	for _, r := range rs {
		e := edge[tw.PrintsEdgeNumber(r.Type)]
		if r.Edge {
			e[0]++
		}
		e[1]++
		edge[tw.PrintsEdgeNumber(r.Type)] = e
		if !doctypes.IsSpecial(r.Type) {
			turned++
			if r.Read == r.Rotation {
				upright++
			}
		}
		p := tw.ApplyWords(w, classes, r.P, r.score(tw))
		a, b := argmax(r.P), argmax(p)
		truth := 0.0
		if i := slices.Index(classes, r.Type); i >= 0 {
			truth = p[i]
		}
		cal.add(p[b], classes[b] == r.Type, truth)
		n++
		if classes[a] == r.Type {
			pic++
		}
		if classes[b] == r.Type {
			words++
		}
		if r.Type == doctypes.Other {
			other++
			if classes[a] == r.Type {
				otherPic++
			}
			if classes[b] == r.Type {
				otherWords++
			}
		}
	}
	fmt.Printf("%s: %d crops, type top-1 picture %.1f %%, with words %.1f %%; other %d: %d and %d right; orientation %d of %d right\n",
		name, n, 100*float64(pic)/float64(n), 100*float64(words)/float64(n), other, otherPic, otherWords, upright, turned)
	fmt.Printf("%s: with words, calibration error (10 bins) %.3f, mean log loss %.3f\n", name, cal.ece(), cal.nll())
	fmt.Printf("%s: edge number read on %d of %d crops of the types printing it, %d of %d others\n",
		name, edge[true][0], edge[true][1], edge[false][0], edge[false][1])
}

func argmax(p []float64) int {
	b := 0
	for i := range p {
		if p[i] > p[b] {
			b = i
		}
	}
	return b
}
