package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/prob"
)

// readPairs reads a -pairs file (one pairLine a line).
func readPairs(path string) ([]pairLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eval: compare: %w", err)
	}
	defer f.Close()
	var out []pairLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var l pairLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("eval: compare: %s line %d: %w", path, n, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: compare: %s: %w", path, err)
	}
	return out, nil
}

// matched is one labelled document found by both runs.
type matched struct{ a, b pairLine }

// side is the first run's line (0) or the second's (1).
func (m matched) side(k int) pairLine {
	if k == 1 {
		return m.b
	}
	return m.a
}

// fileKey names a file by its folder and name only, so that two runs made
// from different working directories or clones (../shared/realdata/x/a.jpg,
// /work/shared/realdata/x/a.jpg) pair up.
func fileKey(path string) string {
	dir, name := filepath.Split(filepath.Clean(filepath.FromSlash(path)))
	return filepath.ToSlash(filepath.Join(filepath.Base(dir), name))
}

// matchPairs pairs the documents of two runs on the same inputs: the k-th
// document of a file (fileKey) with a given truth in one run with the k-th
// of the other. It returns the documents found by both, and how many only the
// first or only the second run found.
func matchPairs(a, b []pairLine) (both []matched, onlyA, onlyB int) {
	key := func(l pairLine, seen map[string]int) string {
		k := fileKey(l.File) + "\x00" + l.Truth
		seen[k]++
		return fmt.Sprintf("%s\x00%d", k, seen[k])
	}
	seenB := map[string]int{}
	inB := map[string]pairLine{}
	for _, l := range b {
		inB[key(l, seenB)] = l
	}
	seenA := map[string]int{}
	used := map[string]bool{}
	for _, l := range a {
		k := key(l, seenA)
		if r, ok := inB[k]; ok {
			both = append(both, matched{l, r})
			used[k] = true
		} else {
			onlyA++
		}
	}
	return both, onlyA, len(b) - len(used)
}

// compareRuns writes a Markdown comparison of two -pairs files made on the
// same inputs: each measure before and after, the documents only one run
// got right with McNemar's exact test, the change of the calibration
// measures and of the mean IoU with a 95 % interval (files resampled, the
// same draw for both runs), and every document whose answer changed.
func compareRuns(pathA, pathB string) (string, error) {
	a, err := readPairs(pathA)
	if err != nil {
		return "", err
	}
	b, err := readPairs(pathB)
	if err != nil {
		return "", err
	}
	both, onlyA, onlyB := matchPairs(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "## %s → %s\n\n", pathA, pathB)
	fmt.Fprintf(&sb, "%d labelled documents found by both runs; %d found only by the first, %d only by the second.\n\n",
		len(both), onlyA, onlyB)
	sb.WriteString("| measure | first | second | only first right | only second right | McNemar p |\n|---|---|---|---|---|---|\n")
	row := func(name string, counted func(l pairLine) bool, ok func(l pairLine) bool) {
		n, okA, okB, onlyFirst, onlySecond := 0, 0, 0, 0, 0
		for _, m := range both {
			if !counted(m.a) || !counted(m.b) {
				continue
			}
			n++
			ra, rb := ok(m.a), ok(m.b)
			switch {
			case ra && !rb:
				onlyFirst++
			case rb && !ra:
				onlySecond++
			}
			if ra {
				okA++
			}
			if rb {
				okB++
			}
		}
		if n == 0 {
			return
		}
		fmt.Fprintf(&sb, "| %s | %d/%d | %d/%d | %d | %d | %.3g |\n", name, okA, n, okB, n, onlyFirst, onlySecond,
			prob.McNemar(onlyFirst, onlySecond))
	}
	typedLine := func(l pairLine) bool { return doctypes.Known(l.Truth) }
	row("type top-1", typedLine, func(l pairLine) bool { return l.Answer == l.Truth })
	row("type at family level", typedLine, func(l pairLine) bool { return doctypes.Family(l.Answer) == doctypes.Family(l.Truth) })
	row("orientation", func(l pairLine) bool { return l.RotationSeen }, func(l pairLine) bool { return l.RotationOK })
	sb.WriteString("\n| measure | first | second | change (95 % interval) |\n|---|---|---|---|\n")
	groups := pairGroups(both, typedLine)
	for _, c := range []struct {
		name    string
		measure func([]float64, []bool) float64
	}{{"expected calibration error (10 bins)", ece10}, {"Brier score", prob.Brier}} {
		stat := func(side int) func(idx []int) float64 {
			return calibrationAt(c.measure, func(i int) float64 { return both[i].side(side).Confidence },
				func(i int) bool { l := both[i].side(side); return l.Answer == l.Truth })
		}
		sb.WriteString(changeRow(c.name, groups, stat(0), stat(1)))
	}
	withQuads := pairGroups(both, func(l pairLine) bool { return l.IoU >= 0 })
	iou := func(side int) func(idx []int) float64 {
		return meanAt(func(i int) float64 { return both[i].side(side).IoU })
	}
	sb.WriteString(changeRow("mean quad IoU", withQuads, iou(0), iou(1)))
	var changed []string
	for _, m := range both {
		if m.a.Answer == m.b.Answer && m.a.RotationOK == m.b.RotationOK {
			continue
		}
		changed = append(changed, fmt.Sprintf("%s: %s: %s (%.2f%s) → %s (%.2f%s)", m.a.File, m.a.Truth,
			m.a.Answer, m.a.Confidence, verdict(m.a), m.b.Answer, m.b.Confidence, verdict(m.b)))
	}
	writeSortedList(&sb, "Documents whose answer or orientation changed (file: truth: first → second)", changed)
	return sb.String(), nil
}

// verdict marks an answer right or wrong, and a wrong orientation, for
// the list of changed answers.
func verdict(l pairLine) string {
	s := ", wrong"
	if l.Answer == l.Truth {
		s = ", right"
	}
	if l.RotationSeen && !l.RotationOK {
		s += ", turned wrong"
	}
	return s
}

// pairGroups groups the indices of the matched documents keep selects (in
// both runs) by file.
func pairGroups(both []matched, keep func(pairLine) bool) [][]int {
	return groupByFile(len(both), func(i int) string { return both[i].a.File },
		func(i int) bool { return keep(both[i].a) && keep(both[i].b) })
}

// changeRow is one row of the paired measures: the measure on each run
// and the change, second minus first, with the percentile interval of the
// change over files resampled (each resample scores both runs).
func changeRow(name string, groups [][]int, first, second func(idx []int) float64) string {
	if len(groups) == 0 {
		return ""
	}
	var all []int
	for _, g := range groups {
		all = append(all, g...)
	}
	sort.Ints(all)
	x, y := first(all), second(all)
	lo, hi := prob.Bootstrap(groups, func(idx []int) float64 { return second(idx) - first(idx) }, bootstrapReps, 0.95, bootstrapSeed)
	return fmt.Sprintf("| %s | %.4f | %.4f | %+.4f (%+.4f to %+.4f) |\n", name, x, y, y-x, lo, hi)
}
