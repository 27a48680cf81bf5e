package main

import (
	"bytes"
	"context"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/testutil"
)

// TestOrientEightStartsUpright checks the 8-way check turns a photo as the
// service sees it: a camera JPEG stored on its side with an EXIF
// orientation is decoded upright before it is turned, so the rotation
// each turn wants is the one that undoes the turn alone.
func TestOrientEightStartsUpright(t *testing.T) {
	testutil.Need(t, "exiftool")
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, testutil.TestPage(60, 40), &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "side.jpg")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.Run(t, filepath.Dir(p), "exiftool", "-q", "-overwrite_original", "-Orientation#=6", p)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := decodeData(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	if s := pages[0].Bounds().Size(); s.X != 40 || s.Y != 60 {
		t.Fatalf("decoded %v, want the upright 40x60 (EXIF orientation 6 applied)", s)
	}
}
