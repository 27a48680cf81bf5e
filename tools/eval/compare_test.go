package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writePairsFile writes lines as a -pairs file in dir.
func writePairsFile(t *testing.T, dir, name string, lines []pairLine) string {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMatchPairs(t *testing.T) {
	l := func(file, truth, answer string) pairLine {
		return pairLine{File: file, Truth: truth, Answer: answer, Confidence: 0.9, IoU: -1}
	}
	// The second run was made from another working directory: its paths
	// name the same files from elsewhere.
	a := []pairLine{l("../shared/set/a.jpg", "snils_front", "snils_front"), l("../shared/set/b.jpg", "driver_license_japan", "other"),
		l("../shared/set/b.jpg", "driver_license_japan", "driver_license_japan"), l("../shared/set/c.jpg", "other", "other")}
	b := []pairLine{l("/work/shared/set/b.jpg", "driver_license_japan", "other"), l("/work/shared/set/a.jpg", "snils_front", "inn_person"),
		l("/work/shared/set/d.jpg", "empty", "empty")}
	both, onlyA, onlyB := matchPairs(a, b)
	if len(both) != 2 || onlyA != 2 || onlyB != 1 {
		t.Fatalf("matched %d, only first %d, only second %d; want 2, 2, 1", len(both), onlyA, onlyB)
	}
	// The first licence of b.jpg in one run goes with the first in the
	// other, whatever the order of the files.
	for _, m := range both {
		if fileKey(m.a.File) != fileKey(m.b.File) || m.a.Truth != m.b.Truth {
			t.Errorf("%s/%s matched with %s/%s", m.a.File, m.a.Truth, m.b.File, m.b.Truth)
		}
		if fileKey(m.a.File) == "set/b.jpg" && m.a.Answer != "other" {
			t.Errorf("b.jpg's first licence matched with its second")
		}
	}
}

func TestCompareRuns(t *testing.T) {
	dir := t.TempDir()
	// Four documents: one right in both, one only in the first, two only
	// in the second; one orientation fixed.
	first := []pairLine{
		{File: "1.jpg", Truth: "snils_front", Answer: "snils_front", Confidence: 0.95, IoU: 0.9, RotationSeen: true, RotationOK: true},
		{File: "2.jpg", Truth: "driver_license_2011_back", Answer: "driver_license_2011_back", Confidence: 0.8, IoU: 0.8, RotationSeen: true, RotationOK: true},
		{File: "3.jpg", Truth: "passport_main", Answer: "other", Confidence: 0.6, IoU: 0.7, RotationSeen: false},
		{File: "4.jpg", Truth: "ogrn", Answer: "inn_person", Confidence: 0.7, IoU: 0.95, RotationSeen: true, RotationOK: false},
	}
	second := []pairLine{
		{File: "1.jpg", Truth: "snils_front", Answer: "snils_front", Confidence: 0.97, IoU: 0.9, RotationSeen: true, RotationOK: true},
		{File: "2.jpg", Truth: "driver_license_2011_back", Answer: "driver_license_2014_back", Confidence: 0.55, IoU: 0.8, RotationSeen: true, RotationOK: true},
		{File: "3.jpg", Truth: "passport_main", Answer: "passport_main", Confidence: 0.9, IoU: 0.9, RotationSeen: false},
		{File: "4.jpg", Truth: "ogrn", Answer: "ogrn", Confidence: 0.9, IoU: 0.95, RotationSeen: true, RotationOK: true},
	}
	md, err := compareRuns(writePairsFile(t, dir, "a.jsonl", first), writePairsFile(t, dir, "b.jsonl", second))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"4 labelled documents found by both runs; 0 found only by the first, 0 only by the second.",
		"| type top-1 | 2/4 | 3/4 | 1 | 2 | 1 |",
		"| type at family level | 2/4 | 4/4 | 0 | 2 | 0.5 |", // the licence's years are one family
		"| orientation | 2/3 | 3/3 | 0 | 1 | 1 |",
		"| mean quad IoU | 0.8375 | 0.8875 | +0.0500 (",
		"2.jpg: driver_license_2011_back: driver_license_2011_back (0.80, right) → driver_license_2014_back (0.55, wrong)",
		"4.jpg: ogrn: inn_person (0.70, wrong, turned wrong) → ogrn (0.90, right)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the comparison lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "1.jpg: snils_front") {
		t.Errorf("an unchanged answer is listed as changed:\n%s", md)
	}
	if _, err := compareRuns(filepath.Join(dir, "none.jsonl"), filepath.Join(dir, "b.jsonl")); err == nil {
		t.Error("a missing pairs file gave no error")
	}
}
