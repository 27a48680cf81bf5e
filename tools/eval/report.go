package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"docsuite/pkg/cpucheck"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/prob"
)

func (r *results) markdown(name, plotBase string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", name)
	fmt.Fprintf(&b, "%d files (%d failed), %d pages, %d labelled documents.", r.Files, r.Failed, r.Pages, r.Truth)
	if r.LaterPages > 0 {
		fmt.Fprintf(&b, " The labelled documents lie on each file's first page: on the %d later pages of multi-page files the first item (the page itself, or its first document) is set aside and further items count as spurious.", r.LaterPages)
	}
	b.WriteString("\n\n")
	pct := func(n, d int) string {
		if d == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.1f %% (%d/%d)", 100*float64(n)/float64(d), n, d)
	}
	typeOK, famOK, rotOK, rotN, iouN := 0, 0, 0, 0, 0
	iouSum := 0.0
	scored := 0
	for _, p := range r.Pairs {
		if p.IoU >= 0 {
			iouSum += p.IoU
			iouN++
		}
		if p.RotSeen {
			rotN++
			if p.RotOK {
				rotOK++
			}
		}
		if !doctypes.Known(p.Truth) {
			continue
		}
		scored++
		if p.Pred == p.Truth {
			typeOK++
		}
		if doctypes.Family(p.Pred) == doctypes.Family(p.Truth) {
			famOK++
		}
	}
	b.WriteString("| measure | value | 95 % interval |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| documents found | %s | %s |\n| documents missed | %d | |\n| spurious documents | %d (%s of predictions) | %s |\n",
		pct(r.Found, r.Truth), shareInterval(r.Found, r.Truth), r.Missed, r.Spurious, pct(r.Spurious, r.Found+r.Spurious),
		shareInterval(r.Spurious, r.Found+r.Spurious))
	if iouN > 0 {
		withQuad := func(p pair) bool { return p.IoU >= 0 }
		fmt.Fprintf(&b, "| mean quad IoU (matched) | %.3f over %d | %s |\n", iouSum/float64(iouN), iouN,
			fileInterval(r.Pairs, withQuad, meanIoU(r.Pairs), 3))
	}
	fmt.Fprintf(&b, "| type top-1 | %s | %s |\n| type at family level | %s | %s |\n",
		pct(typeOK, scored), shareInterval(typeOK, scored), pct(famOK, scored), shareInterval(famOK, scored))
	if rotN > 0 {
		fmt.Fprintf(&b, "| orientation | %s | %s |\n", pct(rotOK, rotN), shareInterval(rotOK, rotN))
	}
	if r.Orient8 > 0 {
		fmt.Fprintf(&b, "| orientation, each single-document image turned and mirrored 7 other ways | %s | %s |\n",
			pct(r.Orient8OK, r.Orient8), shareInterval(r.Orient8OK, r.Orient8))
	}
	if r.Orient8Typed > 0 {
		fmt.Fprintf(&b, "| the same, only images whose upright original is answered a catalogue type (turned ones answered other, not_document or empty: %d) | %s | %s |\n",
			r.Orient8FellSpecial, pct(r.Orient8TypedOK, r.Orient8Typed), shareInterval(r.Orient8TypedOK, r.Orient8Typed))
	}
	conf, right := r.typeAnswers()
	fmt.Fprintf(&b, "| expected calibration error (10 bins) | %.4f | %s |\n", prob.ECE(conf, right, 10),
		fileInterval(r.Pairs, typed, calibrationOf(r.Pairs, ece10), 4))
	fmt.Fprintf(&b, "| Brier score of the type's confidence (mean squared gap to right = 1, wrong = 0; no bins) | %.4f | %s |\n",
		prob.Brier(conf, right), fileInterval(r.Pairs, typed, calibrationOf(r.Pairs, prob.Brier), 4))
	if len(r.Elapsed) > 0 {
		d := append([]time.Duration(nil), r.Elapsed...)
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		var sum time.Duration
		for _, x := range d {
			sum += x
		}
		fmt.Fprintf(&b, "| time per file, median / mean (%s) | %.3f s / %.3f s | |\n", cpucheck.Host().Describe(runtime.NumCPU()), d[len(d)/2].Seconds(), (sum / time.Duration(len(d))).Seconds())
	}
	fmt.Fprintf(&b, "\n%s\n", intervalNote)
	b.WriteString("\n### Per class\n\n| class | support | precision | recall |\n|---|---|---|---|\n")
	for _, cl := range r.classes() {
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", cl.name, cl.support, ratio(cl.tp, cl.tp+cl.fp), ratio(cl.tp, cl.support))
	}
	if plotBase != "" {
		cm := plotBase + "-confusion.png"
		rel := plotBase + "-reliability.png"
		if err := r.plotConfusion(cm); err != nil {
			return "", err
		}
		if err := r.plotReliability(rel, 10); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n![confusion matrix](%s)\n\n![reliability](%s)\n", filepath.Base(cm), filepath.Base(rel))
	}
	if len(r.Orient8Misses) > 0 {
		b.WriteString("\n### Orientation misses, 8 ways (largest item of each turned image)\n\n")
		for _, m := range r.Orient8Misses {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	if len(r.Misses) > 0 || len(r.Failures) > 0 {
		b.WriteString("\n### Misses and failures\n\n")
		for _, m := range append(r.Failures, r.Misses...) {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	var wrong []string
	for _, p := range r.Pairs {
		if doctypes.Known(p.Truth) && p.Pred != p.Truth {
			wrong = append(wrong, fmt.Sprintf("%s → %s (%.2f): %s", p.Truth, p.Pred, p.Conf, p.File))
		}
	}
	writeSortedList(&b, "Wrong types (truth → predicted, confidence: file)", wrong)
	var turned []string
	for _, p := range r.Pairs {
		if p.RotSeen && !p.RotOK {
			turned = append(turned, fmt.Sprintf("%s: rotation %d, answered %d as %s (%.2f): %s", p.Truth, p.RotTruth, p.RotPred, p.Pred, p.Conf, p.File))
		}
	}
	writeSortedList(&b, "Wrong orientations (truth: rotation wanted, answered, as type: file)", turned)
	writeSortedList(&b, "Spurious items (answered type, confidence: file)", r.SpuriousItems)
	return b.String(), nil
}

// writeSortedList writes a section titled title listing items sorted, or
// nothing when there are none.
func writeSortedList(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	sort.Strings(items)
	fmt.Fprintf(b, "\n### %s\n\n", title)
	for _, w := range items {
		fmt.Fprintf(b, "- %s\n", w)
	}
}

func ratio(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(n)/float64(d))
}

type classStat struct {
	name            string
	support, tp, fp int
}

func (r *results) classes() []classStat {
	m := map[string]*classStat{}
	get := func(n string) *classStat {
		if m[n] == nil {
			m[n] = &classStat{name: n}
		}
		return m[n]
	}
	for _, p := range r.Pairs {
		if !doctypes.Known(p.Truth) {
			continue
		}
		get(p.Truth).support++
		if p.Pred == p.Truth {
			get(p.Truth).tp++
		} else {
			get(p.Pred).fp++
		}
	}
	out := make([]classStat, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// typeAnswers returns the confidence of each type decision on a labelled
// document and whether it was right, for the calibration measures.
func (r *results) typeAnswers() (conf []float64, right []bool) {
	for _, p := range r.Pairs {
		if doctypes.Known(p.Truth) {
			conf = append(conf, p.Conf)
			right = append(right, p.Pred == p.Truth)
		}
	}
	return conf, right
}
