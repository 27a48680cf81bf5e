package mrz

import (
	"context"
	"errors"
	"testing"

	"docsuite/pkg/testutil"
)

// A blurred zone (the document factory's photo 37 of seed 20261124, as
// JPEG): read at twice its width (Read) no zone verifies; with the second
// reading at its own width (WithSecondReading) the zone verifies and the
// document line is exact.
func TestReadBlurredZoneAtOwnWidth(t *testing.T) {
	img := testutil.DecodeImage(t, "testdata/photo_blurred_zone.jpg")
	once := NewReader(testutil.PPOCR(t))
	ctx := context.Background()
	wide, err := once.Read(ctx, img)
	if err != nil && !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if wide != nil && wide.Valid() {
		t.Fatalf("the zone verifies in one reading (%q): the case no longer tests the second", wide.Lines)
	}
	rd, err := once.WithSecondReading().Read(ctx, img)
	if err != nil {
		t.Fatal(err)
	}
	if !rd.Valid() {
		t.Fatalf("zone not verified: %q, failed %v", rd.Lines, rd.Failed())
	}
	if want := "5818322849RUS7311154M<<<<<<<2120125549145<30"; rd.Lines[1] != want {
		t.Errorf("line 2 %q, want %q", rd.Lines[1], want)
	}
}

// A Reader WithZoneAtBottom, which gives up when neither of an image's two
// lowest rows reads like a zone line, still reads a zone that ends its
// image (the blurred zone above, whose rows are read at their own width
// first).
func TestZoneAtBottom(t *testing.T) {
	r := NewReader(testutil.PPOCR(t)).WithZoneAtBottom()
	rd, err := r.Read(context.Background(), testutil.DecodeImage(t, "testdata/photo_blurred_zone.jpg"))
	if err != nil || !rd.Valid() {
		t.Fatalf("blurred zone: %v, %+v", err, rd)
	}
	if want := "5818322849RUS7311154M<<<<<<<2120125549145<30"; rd.Lines[1] != want {
		t.Errorf("line 2 %q, want %q", rd.Lines[1], want)
	}
}
