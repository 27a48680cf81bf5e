package roles

import (
	"context"
	"errors"
	"image"
	"testing"
	"time"
)

// sized is an image of the given size with no pixels, for the gate, which
// looks only at the bounds.
type sized struct{ image.Gray }

func sizedImage(w, h int) image.Image {
	return &sized{image.Gray{Rect: image.Rect(0, 0, w, h)}}
}

// TestLargeGate: a large crop waits while another is worked on and goes
// on when it is done; small crops pass beside it; a wait ends with its
// context.
func TestLargeGate(t *testing.T) {
	g := newLargeGate()
	ctx := context.Background()
	leave, err := g.enter(ctx, sizedImage(4000, 4000))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{100, 100}, {3999, 4000}} {
		small, err := g.enter(ctx, sizedImage(size[0], size[1]))
		if err != nil {
			t.Fatalf("%v crop beside a large one: %v", size, err)
		}
		small()
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := g.enter(short, sizedImage(7070, 10000)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second large crop while the first is worked on: %v, want it to wait until its context ends", err)
	}
	entered := make(chan func(), 1)
	go func() {
		l, err := g.enter(ctx, sizedImage(7070, 10000))
		if err != nil {
			t.Error(err)
		}
		entered <- l
	}()
	select {
	case <-entered:
		t.Fatal("a second large crop went on while the first was worked on")
	case <-time.After(50 * time.Millisecond):
	}
	leave()
	select {
	case l := <-entered:
		l()
	case <-time.After(5 * time.Second):
		t.Fatal("the second large crop did not go on when the first was done")
	}
}
