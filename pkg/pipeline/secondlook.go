package pipeline

import (
	"context"

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

// secondLook answers each of the junk pages (junkPages) as nothing
// document-like found is answered: the whole page is its one item,
// classified and oriented again, in place of the parts cut from it.
func (r *Runner) secondLook(ctx context.Context, in Input, p params.Classify, pages []stages.CropReply, items []Item) ([]Item, error) {
	junk := junkPages(pages, items)
	if len(junk) == 0 || p.NoCrop() {
		return items, nil
	}
	again := make([]Item, len(junk))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.limits.PageParallel)
	for i, pi := range junk {
		g.Go(func() error {
			req := r.cropRequest(in, p, pi)
			req.WholePage = true
			rep, err := call[stages.CropRequest, stages.CropReply](gctx, r, stages.Crop, req)
			if err != nil {
				return err
			}
			again[i], err = r.document(gctx, in, p, pi, 0, rep.Docs[0])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	drop := map[int]bool{}
	for _, pi := range junk {
		drop[pi+1] = true
	}
	kept := items[:0]
	for _, it := range items {
		if !drop[it.Document.Page] {
			kept = append(kept, it)
		}
	}
	return append(kept, again...), nil
}
