package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"docsuite/pkg/stages"
)

// cropOf cuts docs[i] documents out of page i of a file of len(docs) pages.
func cropOf(docs []int) func(ctx context.Context, page int) (stages.CropReply, error) {
	return func(ctx context.Context, page int) (stages.CropReply, error) {
		rep := stages.CropReply{PagesTotal: len(docs)}
		for i := 0; i < docs[page]; i++ {
			rep.Docs = append(rep.Docs, stages.Found{CropKey: fmt.Sprintf("p%d_d%d", page, i)})
		}
		return rep, nil
	}
}

// TestRunPagesHandlesDocumentsWhilePagesAreCut: a page's documents are
// handled as soon as it is cut. The last page's crop waits until a
// document of page 1 has been handled, which can only happen if documents
// do not wait for every page to be cut.
func TestRunPagesHandlesDocumentsWhilePagesAreCut(t *testing.T) {
	docs := []int{1, 2, 1}
	firstDoc := make(chan struct{})
	var once sync.Once
	crop := cropOf(docs)
	w := pageWork{
		crop: func(ctx context.Context, page int) (stages.CropReply, error) {
			if page == len(docs)-1 {
				select {
				case <-firstDoc:
				case <-ctx.Done():
					return stages.CropReply{}, ctx.Err()
				}
			}
			return crop(ctx, page)
		},
		doc: func(ctx context.Context, page, idx int, d stages.Found) error {
			once.Do(func() { close(firstDoc) })
			return nil
		},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := runPages(ctx, w, 1, 1, nil); err != nil {
		t.Fatalf("documents waited for every page to be cut: %v", err)
	}
}

// TestRunPagesProgressCountsFinishedPages: progress starts at 0 of the
// page count and counts a page only once all its documents are handled
// (a page without any counts when cut); every document is handled once.
func TestRunPagesProgressCountsFinishedPages(t *testing.T) {
	tests := []struct {
		name       string
		docs       []int
		pages, doc int
	}{
		{"one page", []int{3}, 1, 2},
		{"pages of several documents", []int{2, 1, 4, 1, 3, 2}, 2, 3},
		{"a page without documents", []int{1, 0, 2}, 4, 8},
		{"one at a time", []int{2, 2, 2, 2}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			handled := map[string]int{}
			left := map[int]int{}
			for p, n := range tc.docs {
				left[p] = n
			}
			var calls [][2]int
			w := pageWork{
				crop: cropOf(tc.docs),
				doc: func(ctx context.Context, page, idx int, d stages.Found) error {
					time.Sleep(time.Millisecond * time.Duration(1+(page*7+idx*3)%5))
					mu.Lock()
					defer mu.Unlock()
					handled[d.CropKey]++
					left[page]--
					return nil
				},
			}
			progress := func(done, total int) {
				mu.Lock()
				defer mu.Unlock()
				finished := 0
				for _, n := range left {
					if n == 0 {
						finished++
					}
				}
				if done > finished {
					t.Errorf("progress %d of %d with %d pages finished", done, total, finished)
				}
				calls = append(calls, [2]int{done, total})
			}
			pages, err := runPages(context.Background(), w, tc.pages, tc.doc, progress)
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != len(tc.docs) {
				t.Fatalf("%d pages, want %d", len(pages), len(tc.docs))
			}
			want := 0
			for p, n := range tc.docs {
				want += n
				if len(pages[p].Docs) != n {
					t.Errorf("page %d: %d documents, want %d", p, len(pages[p].Docs), n)
				}
			}
			if len(handled) != want {
				t.Errorf("%d documents handled, want %d", len(handled), want)
			}
			for k, n := range handled {
				if n != 1 {
					t.Errorf("%s handled %d times", k, n)
				}
			}
			n := len(tc.docs)
			if len(calls) != n+1 || calls[0] != [2]int{0, n} || calls[n] != [2]int{n, n} {
				t.Errorf("progress calls %v, want 0..%d of %d", calls, n, n)
			}
		})
	}
}

// TestRunPagesStopsAtTheFirstError: a failing document fails the file,
// the pages left are not waited for, and the progress never reaches the
// end.
func TestRunPagesStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("classifier down")
	docs := []int{1, 1, 1, 1, 1, 1, 1, 1}
	var last [2]int
	w := pageWork{
		crop: cropOf(docs),
		doc: func(ctx context.Context, page, idx int, d stages.Found) error {
			if page == 2 {
				return boom
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
				return nil
			}
		},
	}
	_, err := runPages(context.Background(), w, 2, 2, func(done, total int) { last = [2]int{done, total} })
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if last[0] == len(docs) {
		t.Errorf("progress reached %v on a failed file", last)
	}
}
