package pipeline

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/params"
	"docsuite/pkg/stages"
)

// junkPages returns the indexes of the pages whose every cut document the
// classifier called not_document: the cropper took a part of something
// for a document (the emblem of a closed passport cover, a stamp, a face
// in a photograph), which is the same as finding nothing document-like.
// Pages answered whole are not among them, nor pages some of whose
// documents are documents (a photograph lying among cards is an item).
func junkPages(pages []stages.CropReply, items []Item) []int {
	var out []int
	for pi, page := range pages {
		if len(page.Docs) == 0 || page.Docs[0].WholePage {
			continue
		}
		junk := true
		for _, it := range items {
			if it.Document.Page == pi+1 && it.Document.Type != doctypes.NotDocument {
				junk = false
				break
			}
		}
		if junk {
			out = append(out, pi)
		}
	}
	return out
}

// secondLook looks again at each of the junk pages (junkPages) as a whole
// page, classified and oriented as one item. When that item is a document
// (a catalogue type or other) it replaces the pieces cut from the page:
// they were parts of it. When the whole page is no document either
// (not_document, empty), the pieces stay: a photograph lying alone on a
// table is rightly the photograph.
func (r *Runner) secondLook(ctx context.Context, in Input, p params.Classify, pages []stages.CropReply, items []Item) ([]Item, error) {
	junk := junkPages(pages, items) // none with mode=classify_only: every page is whole
	if len(junk) == 0 {
		return items, nil
	}
	// The whole pages' crops are stored beside the pieces' (under the
	// task's prefix, removed with it), not over them: the pieces may stay.
	whole := in
	whole.TaskID = in.TaskID + "/whole"
	again := make([]Item, len(junk))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.limits.PageParallel)
	for i, pi := range junk {
		g.Go(func() error {
			req := r.cropRequest(whole, p, pi)
			req.WholePage = true
			rep, err := call[stages.CropRequest, stages.CropReply](gctx, r, stages.Crop, req)
			if err != nil {
				return err
			}
			if len(rep.Docs) != 1 {
				return fmt.Errorf("pipeline: page %d cropped whole gave %d items", pi+1, len(rep.Docs))
			}
			again[i], err = r.document(gctx, whole, p, pi, 0, rep.Docs[0])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return replaceJunk(items, again), nil
}

// replaceJunk puts each whole page of again that is a document (neither
// not_document nor empty) in place of the items of its page, and leaves
// the other pages' items as they are.
func replaceJunk(items, again []Item) []Item {
	drop := map[int]bool{}
	var wholes []Item
	for _, it := range again {
		if t := it.Document.Type; t != doctypes.NotDocument && t != doctypes.Empty {
			drop[it.Document.Page] = true
			wholes = append(wholes, it)
		}
	}
	var kept []Item
	for _, it := range items {
		if !drop[it.Document.Page] {
			kept = append(kept, it)
		}
	}
	return append(kept, wholes...)
}
