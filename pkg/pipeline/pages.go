package pipeline

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/stages"
)

// pageWork is what runPages does with a file: crop cuts out the documents
// of page i, doc classifies and orients one of them.
type pageWork struct {
	crop func(ctx context.Context, page int) (stages.CropReply, error)
	doc  func(ctx context.Context, page, idx int, d stages.Found) error
}

// runPages crops every page of a file and handles each document as soon
// as its page is cut, not once every page is: on a long file the
// classifier starts on page 1 while the cropper cuts the rest, and a page
// counts as done (progress) when its documents are, so a task's progress
// does not stand at every page while most of the work is still ahead.
// Page 0 is cut first to learn the page count. At most pageParallel pages
// are cut and docParallel documents handled at once; the first error
// stops the rest. Progress is first told the page count with none done.
func runPages(ctx context.Context, w pageWork, pageParallel, docParallel int, progress Progress) ([]stages.CropReply, error) {
	first, err := w.crop(ctx, 0)
	if err != nil {
		return nil, err
	}
	total := max(first.PagesTotal, 1)
	pages := make([]stages.CropReply, total)
	pages[0] = first
	if progress != nil {
		progress(0, total)
	}

	g, gctx := errgroup.WithContext(ctx)
	cropSlots := make(chan struct{}, max(pageParallel, 1))
	docSlots := make(chan struct{}, max(docParallel, 1))
	var mu sync.Mutex
	done := 0
	pageDone := func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		if progress != nil {
			progress(done, total)
		}
	}
	acquire := func(slots chan struct{}) error {
		select {
		case slots <- struct{}{}:
			return nil
		case <-gctx.Done():
			return gctx.Err()
		}
	}
	// handle starts the documents of a cut page; the last to finish
	// counts the page.
	handle := func(pi int, rep stages.CropReply) {
		if len(rep.Docs) == 0 {
			pageDone()
			return
		}
		var left sync.WaitGroup
		left.Add(len(rep.Docs))
		for di, d := range rep.Docs {
			g.Go(guarded(func() error {
				defer left.Done()
				if err := acquire(docSlots); err != nil {
					return err
				}
				defer func() { <-docSlots }()
				return w.doc(gctx, pi, di, d)
			}))
		}
		g.Go(guarded(func() error {
			left.Wait()
			if gctx.Err() == nil {
				pageDone()
			}
			return nil
		}))
	}
	handle(0, first)
	for i := 1; i < total; i++ {
		g.Go(guarded(func() error {
			if err := acquire(cropSlots); err != nil {
				return err
			}
			rep, err := w.crop(gctx, i)
			<-cropSlots
			if err != nil {
				return err
			}
			mu.Lock()
			pages[i] = rep
			mu.Unlock()
			handle(i, rep)
			return nil
		}))
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return pages, nil
}
