// Command dictwords writes the classifier's dictionary
// (pkg/classify/dictionary.txt.gz): the words of Tesseract's own Russian
// and English word lists (the lstm-word-dawg of rus.traineddata and
// eng.traineddata), folded as the classifier compares words
// (classify.Fold), sorted, one per line, gzipped. The classifier counts a
// word no template prints as a sign of a document outside the catalogue
// only when the dictionary holds it (classify.TypeWords.Score): OCR's
// gibberish on a noisy photograph is no such sign.
//
//	go run ./tools/dictwords                       (what make models runs)
//	go run ./tools/dictwords -tessdata DIR -out F
//
// It runs combine_tessdata and dawg2wordlist, which the tesseract-ocr
// package installs beside tesseract.
package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"docsuite/pkg/classify"
)

func main() {
	tessdata := flag.String("tessdata", "/usr/share/tesseract-ocr/5/tessdata", "folder holding rus.traineddata and eng.traineddata")
	out := flag.String("out", "pkg/classify/dictionary.txt.gz", "file to write")
	flag.Parse()
	if err := run(context.Background(), *tessdata, *out); err != nil {
		fmt.Fprintln(os.Stderr, "dictwords:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, tessdata, out string) error {
	tmp, err := os.MkdirTemp("", "dictwords")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	seen := map[string]bool{}
	for _, lang := range []string{"rus", "eng"} {
		words, err := wordList(ctx, tessdata, tmp, lang)
		if err != nil {
			return err
		}
		n := 0
		for _, w := range words {
			f := classify.Fold(w)
			if classify.DictionaryWord(f) && !seen[f] {
				seen[f] = true
				n++
			}
		}
		fmt.Printf("dictwords: %s: %d words listed, %d new after folding\n", lang, len(words), n)
	}
	list := make([]string, 0, len(seen))
	for w := range seen {
		list = append(list, w)
	}
	slices.Sort(list)
	return writeGzip(out, list)
}

// wordList unpacks lang's traineddata into dir and returns the words of
// its LSTM word list.
func wordList(ctx context.Context, tessdata, dir, lang string) ([]string, error) {
	prefix := filepath.Join(dir, lang) + "."
	src := filepath.Join(tessdata, lang+".traineddata")
	if b, err := exec.CommandContext(ctx, "combine_tessdata", "-u", src, prefix).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("combine_tessdata -u %s: %w: %s", src, err, lastLine(b))
	}
	txt := prefix + "words.txt"
	if b, err := exec.CommandContext(ctx, "dawg2wordlist", prefix+"lstm-unicharset", prefix+"lstm-word-dawg", txt).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("dawg2wordlist %s: %w: %s", lang, err, lastLine(b))
	}
	b, err := os.ReadFile(txt)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(b)), nil
}

func writeGzip(path string, list []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	bw := bufio.NewWriter(zw)
	for _, w := range list {
		bw.WriteString(w)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Printf("dictwords: %d words written to %s\n", len(list), path)
	return nil
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
