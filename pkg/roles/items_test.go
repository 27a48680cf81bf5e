package roles

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"docsuite/pkg/bus"
	"docsuite/pkg/bus/bustest"
	"docsuite/pkg/pipeline"
)

// itemsOnPages returns one classification item on each page listed.
func itemsOnPages(pages ...int) []pipeline.Item {
	items := make([]pipeline.Item, len(pages))
	for i, p := range pages {
		items[i].Document = pipeline.Document{Page: p}
	}
	return items
}

func TestEachItem(t *testing.T) {
	_, nc, log := bustest.Start(t, "test")
	d := Deps{NC: nc, Log: log}

	tests := []struct {
		name  string
		pages int
		items []pipeline.Item
		slow  int   // the item that finishes last
		fail  int   // the item that fails, -1 none
		want  []int // pages done reported, in order
	}{
		{name: "page done when its last item is", pages: 3, items: itemsOnPages(1, 1, 2, 3), slow: 0, fail: -1, want: []int{1, 2, 3}},
		{name: "a page with no item counts done from the start", pages: 3, items: itemsOnPages(1, 3), slow: 1, fail: -1, want: []int{2, 3}},
		{name: "an item failing stops the answer", pages: 2, items: itemsOnPages(1, 2, 2), slow: 0, fail: 2, want: nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task := "each-item-" + string(rune('a'+i))
			var mu sync.Mutex
			var got []int
			stop, err := bus.FollowProgress(nc, task, func(done, total int) {
				if total != tt.pages {
					t.Errorf("total %d, want %d", total, tt.pages)
				}
				mu.Lock()
				got = append(got, done)
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			var running, most atomic.Int32
			handled := make([]bool, len(tt.items))
			err = eachItem(context.Background(), d, task, tt.items, tt.pages, 2, func(ctx context.Context, i int) error {
				n := running.Add(1)
				defer running.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				if i == tt.fail {
					return errors.New("unreadable")
				}
				wait := 20 * time.Millisecond // long enough for the limit's items to overlap
				if i == tt.slow {
					wait = 150 * time.Millisecond
				}
				select {
				case <-time.After(wait):
				case <-ctx.Done():
					return ctx.Err()
				}
				handled[i] = true
				return nil
			})
			if err := nc.Flush(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // let the last report arrive
			stop()
			if tt.fail >= 0 {
				if err == nil {
					t.Fatal("no error from a failing item")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(handled, false) {
				t.Errorf("items handled %v, want all", handled)
			}
			if most.Load() != 2 {
				t.Errorf("%d items at once, want 2 (the limit)", most.Load())
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(got, tt.want) {
				t.Errorf("pages done reported %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPageCount checks that a classification run before a task's own work
// tells the page count once, with none done, and no classified page as done
// (eachItem counts a page done once its documents are handled).
func TestPageCount(t *testing.T) {
	_, nc, log := bustest.Start(t, "test")
	var mu sync.Mutex
	var got [][2]int
	stop, err := bus.FollowProgress(nc, "page-count", func(done, total int) {
		mu.Lock()
		got = append(got, [2]int{done, total})
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	progress := pageCount(Deps{NC: nc, Log: log}, "page-count")
	for done := range 4 { // as runPages tells it: none done of 3, then each page classified
		progress(done, 3)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // let the reports arrive
	stop()
	mu.Lock()
	defer mu.Unlock()
	if want := [][2]int{{0, 3}}; !slices.Equal(got, want) {
		t.Errorf("reported %v, want %v", got, want)
	}
}
