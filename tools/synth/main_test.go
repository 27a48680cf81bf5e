package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
		check   func(*options) bool
	}{
		{"needs out", []string{"-n", "3"}, true, nil},
		{"gallery needs no out", []string{"-gallery", "x"}, false, func(o *options) bool { return o.gallery == "x" }},
		{"types split", []string{"-out", "d", "-types", "bank_card, snils_front"}, false,
			func(o *options) bool { return len(o.cfg.Types) == 2 && o.cfg.Types[1] == "snils_front" }},
		{"fx scales effects", []string{"-out", "d", "-fx", "0.5", "-blur", "2"}, false,
			func(o *options) bool { return o.cfg.Effects.Blur == 1 && o.cfg.Effects.Noise == 0.5 }},
		{"effects off", []string{"-out", "d", "-fx", "0"}, false,
			func(o *options) bool { return o.cfg.Effects.Perspective == 0 && o.cfg.Effects.JPEG == 0 }},
		{"seed", []string{"-out", "d", "-seed", "42"}, false, func(o *options) bool { return o.cfg.Seed == 42 }},
		{"found-by needs crops", []string{"-out", "d", "-found-by", "models"}, true, nil},
		{"found-by cuts documents, not clutter", []string{"-out", "d", "-crops", "-clutter-crops", "-found-by", "models"}, true, nil},
		{"page-crops needs crops", []string{"-out", "d", "-page-crops"}, true, nil},
		{"page-crops or clutter-crops", []string{"-out", "d", "-crops", "-page-crops", "-clutter-crops"}, true, nil},
		{"page-crops with crops", []string{"-out", "d", "-crops", "-page-crops", "-max-docs", "1"}, false,
			func(o *options) bool { return o.pageCrops && !o.clutterCrops && o.cfg.MaxDocs == 1 }},
		{"found-by with crops", []string{"-out", "d", "-crops", "-found-by", "models", "-found-max-iou", "0.9"}, false,
			func(o *options) bool { return o.foundBy == "models" && o.foundMinIoU == 0.5 && o.foundMaxIoU == 0.9 }},
	}
	for _, tc := range tests {
		o, err := parseFlags(tc.args)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err = %v", tc.name, err)
			continue
		}
		if err == nil && tc.check != nil && !tc.check(o) {
			t.Errorf("%s: options %+v", tc.name, o.cfg)
		}
	}
}

func TestParallel(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	err := parallel(context.Background(), 5, 20, 3, func(_ context.Context, i int) error {
		mu.Lock()
		seen[i] = true
		mu.Unlock()
		return nil
	})
	if err != nil || len(seen) != 20 || !seen[5] || !seen[24] {
		t.Fatalf("err %v, saw %d items", err, len(seen))
	}
	boom := errors.New("boom")
	err = parallel(context.Background(), 0, 100, 2, func(_ context.Context, i int) error {
		if i == 7 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("want the job's error, got %v", err)
	}
}

// TestFailedCropRunKeepsLabels checks that a crop run that fails part way
// still writes the labels of the crops it made: item 1 cannot be written
// (a folder stands where its first crop goes), item 0 was.
func TestFailedCropRunKeepsLabels(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "crop_000001_0.jpg"), 0o755); err != nil {
		t.Fatal(err)
	}
	o, err := parseFlags([]string{"-out", dir, "-crops", "-n", "3", "-workers", "1", "-seed", "5"})
	if err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), o)
	if err == nil {
		t.Fatal("the run succeeded though item 1 could not be written")
	}
	raw, rerr := os.ReadFile(filepath.Join(dir, "labels.jsonl"))
	if rerr != nil {
		t.Fatalf("no labels after the failed run (%v): %v", err, rerr)
	}
	var files []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var l cropLabel
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		files = append(files, l.File)
		if _, err := os.Stat(filepath.Join(dir, l.File)); err != nil {
			t.Errorf("label for a crop not written: %v", err)
		}
	}
	if len(files) == 0 || !strings.HasPrefix(files[0], "crop_000000_") {
		t.Errorf("labels %v, want item 0's crops", files)
	}
}
