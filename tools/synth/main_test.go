package main

import (
	"context"
	"errors"
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
