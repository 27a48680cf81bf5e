package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The per-sign table of the forgery check lies in accuracy-fraud.md
// between these two lines; the real-data report (accuracy.md) carries a
// copy of it, so that the figures have one source.
const (
	fraudTableBegin = "<!-- per-sign table: tools/eval copies it into accuracy.md -->"
	fraudTableEnd   = "<!-- end of the per-sign table -->"
)

// fraudSection returns the real-data report's section on the forgery
// check: the per-sign precision and recall on the synthetic tampering set,
// copied from accuracy-fraud.md in docsDir.
func fraudSection(docsDir string) (string, error) {
	path := filepath.Join(docsDir, "accuracy-fraud.md")
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("forgery check table: %w", err)
	}
	table, err := fraudTable(string(raw))
	if err != nil {
		return "", fmt.Errorf("forgery check table in %s: %w", path, err)
	}
	return "\n## Forgery check: precision and recall per sign\n\n" +
		"`/pipelines/run/fraud` on the synthetic tampering set (the factory's documents forged with ground truth; " +
		"set, method, per-kind verdicts and the real files in [accuracy-fraud.md](accuracy-fraud.md), " +
		"measured by `go run ./tools/tamper -n 20 -fit` and, for `mrz_mismatch`, " +
		"`ZONECHECK_EVAL_N=20 go test ./pkg/fraud/zonecheck -run TestEvalSynthetic`; copied here from that page):\n\n" +
		table, nil
}

// fraudTable returns the lines between the table's markers in md.
func fraudTable(md string) (string, error) {
	_, rest, ok := strings.Cut(md, fraudTableBegin+"\n")
	if !ok {
		return "", fmt.Errorf("no line %q", fraudTableBegin)
	}
	table, _, ok := strings.Cut(rest, fraudTableEnd)
	if !ok {
		return "", fmt.Errorf("no line %q", fraudTableEnd)
	}
	table = strings.TrimSpace(table)
	if !strings.HasPrefix(table, "| sign |") {
		return "", fmt.Errorf("the marked lines are not the per-sign table: %.40q", table)
	}
	return table + "\n", nil
}
