package main

import (
	"path/filepath"
	"testing"
)

// TestCommittedFilesUpToDate fails when the env-file template or the
// variable table of docs/operations.md differs from what the config
// structs generate: run `go run ./tools/envdoc` and commit.
func TestCommittedFilesUpToDate(t *testing.T) {
	stale, err := run(filepath.Join("..", ".."), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		t.Errorf("%s is out of date: run go run ./tools/envdoc", p)
	}
}

func TestReplaceBlock(t *testing.T) {
	cases := []struct {
		name, doc, want string
		wantErr         bool
	}{
		{"replaces", "a\n" + beginMarker + "\nold\n" + endMarker + "\nz\n", "a\n" + beginMarker + "\nT\n" + endMarker + "\nz\n", false},
		{"empty block", beginMarker + endMarker, beginMarker + "\nT\n" + endMarker, false},
		{"no markers", "text", "", true},
		{"markers reversed", endMarker + beginMarker, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := replaceBlock([]byte(tc.doc), []byte("T\n"))
			if tc.wantErr != (err != nil) {
				t.Fatalf("err = %v", err)
			}
			if !tc.wantErr && string(got) != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
