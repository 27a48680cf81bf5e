package roles

import (
	"context"
	"errors"
	"testing"
	"time"

	"docsuite/pkg/store"
)

// TestLargeGate: a large crop waits while another is worked on and goes
// on when it is done; small crops pass beside it; a wait ends with its
// context.
func TestLargeGate(t *testing.T) {
	g := newLargeGate()
	ctx := context.Background()
	leave, err := g.enter(ctx, 4000*4000)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{100, 100}, {3999, 4000}} {
		small, err := g.enter(ctx, size[0]*size[1])
		if err != nil {
			t.Fatalf("%v crop beside a large one: %v", size, err)
		}
		small()
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := g.enter(short, 7070*10000); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second large crop while the first is worked on: %v, want it to wait until its context ends", err)
	}
	entered := make(chan func(), 1)
	go func() {
		l, err := g.enter(ctx, 7070*10000)
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

// TestReadGatedWaitsBeforeReading: a large crop whose size the request
// gives waits for its turn before it is read (the missing key is not
// looked for while another large crop is worked on); one whose size is not
// given is read at once.
func TestReadGatedWaitsBeforeReading(t *testing.T) {
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := newLargeGate()
	ctx := context.Background()
	leave, err := g.enter(ctx, largeCropPixels)
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, _, err := readGated(short, g, st, "tasks/t/none.raw", largeCropPixels); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("large crop of a given size: %v, want it to wait for its turn", err)
	}
	if _, _, err := readGated(ctx, g, st, "tasks/t/none.raw", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("crop of no given size: %v, want the store's not found at once", err)
	}
}
