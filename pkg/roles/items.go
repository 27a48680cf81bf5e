package roles

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/pipeline"
)

// eachItem calls do for every item of a classification, up to limit at
// once (the engines the worker holds), and reports a page done of pages
// when the last of its items is (in whatever order they finish). The
// first error stops the rest and is returned; do's context ends with it.
func eachItem(ctx context.Context, d Deps, taskID string, items []pipeline.Item, pages, limit int,
	do func(ctx context.Context, i int) error) error {
	left := map[int]int{}
	for _, it := range items {
		left[it.Document.Page]++
	}
	var mu sync.Mutex
	done := pages - len(left) // pages with no item have nothing to wait for
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(limit, 1))
	for i := range items {
		g.Go(func() error {
			if err := do(gctx, i); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			if left[items[i].Document.Page]--; left[items[i].Document.Page] == 0 {
				done++
				reportProgress(d, taskID, done, pages)
			}
			return nil
		})
	}
	return g.Wait()
}

// pageCount is the progress a classification run before a task's own work
// (recognize, fraud) is given: the task's page count with none done, told
// as soon as the first page is cut, and nothing more, since a page is done
// only once eachItem has handled its documents. A client polling such a
// task saw 0 of 0 pages until the first page's documents were all done.
func pageCount(d Deps, taskID string) pipeline.Progress {
	return func(done, total int) {
		if done == 0 {
			reportProgress(d, taskID, 0, total)
		}
	}
}
