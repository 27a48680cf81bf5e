package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDictionaryIsReproduced rebuilds the classifier's dictionary from the
// installed Tesseract's word lists and checks it is byte for byte the one
// committed: the file is made by this command, not edited by hand.
func TestDictionaryIsReproduced(t *testing.T) {
	for _, tool := range []string{"combine_tessdata", "dawg2wordlist"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (make deps installs tesseract-ocr)", tool)
		}
	}
	const tessdata = "/usr/share/tesseract-ocr/5/tessdata"
	if _, err := os.Stat(filepath.Join(tessdata, "rus.traineddata")); err != nil {
		t.Skipf("no Russian traineddata: %v", err)
	}
	out := filepath.Join(t.TempDir(), "dictionary.txt.gz")
	if err := run(context.Background(), tessdata, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../pkg/classify/dictionary.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("rebuilt dictionary (%d bytes) differs from pkg/classify/dictionary.txt.gz (%d bytes): run go run ./tools/dictwords", len(got), len(want))
	}
}
