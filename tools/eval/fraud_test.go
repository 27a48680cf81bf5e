package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFraudTable(t *testing.T) {
	table := "| sign | precision |\n|---|---|\n| copy_move | 1.00 |\n"
	tests := []struct {
		name, md, want string
		ok             bool
	}{
		{"marked", "# x\n\n" + fraudTableBegin + "\n" + table + fraudTableEnd + "\nmore\n", table, true},
		{"no begin", "# x\n" + table + fraudTableEnd + "\n", "", false},
		{"no end", fraudTableBegin + "\n" + table, "", false},
		{"not the table", fraudTableBegin + "\n| kind | samples |\n" + fraudTableEnd + "\n", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fraudTable(tc.md)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("fraudTable = %q, %v; want %q, ok %v", got, err, tc.want, tc.ok)
			}
		})
	}
}

// TestAccuracyCarriesFraudTable checks that the committed real-data
// report holds the forgery check's per-sign table as accuracy-fraud.md
// has it now, as `make eval` would write it.
func TestAccuracyCarriesFraudTable(t *testing.T) {
	docs := filepath.Join("..", "..", "docs")
	sec, err := fraudSection(docs)
	if err != nil {
		t.Fatal(err)
	}
	for _, sign := range []string{"editor_metadata", "copy_move", "splicing", "photo_box", "mrz_mismatch"} {
		if !strings.Contains(sec, "| "+sign+" |") {
			t.Errorf("the per-sign table has no row for %s", sign)
		}
	}
	report, err := os.ReadFile(filepath.Join(docs, "accuracy.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(report), sec) {
		t.Errorf("docs/accuracy.md does not end with the per-sign table of docs/accuracy-fraud.md; want it to end with:\n%s", sec)
	}
}
