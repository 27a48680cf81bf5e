package pipeline

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/params"
	"docsuite/pkg/stages"
)

// junkPages returns the indexes of the pages whose every cut document is
// junk (see junk): the cropper took a part of something for a document
// (the emblem of a closed passport cover, a stamp, a face or a number
// plate in a photograph), which is the same as finding nothing
// document-like. Pages answered whole are not among them, nor pages some
// of whose documents are documents (a photograph lying among cards is an
// item).
func junkPages(pages []stages.CropReply, items []Item) []int {
	var out []int
	for pi, page := range pages {
		if len(page.Docs) == 0 || page.Docs[0].WholePage {
			continue
		}
		all := true
		for _, it := range items {
			if it.Document.Page == pi+1 && !junk(it) {
				all = false
				break
			}
		}
		if all {
			out = append(out, pi)
		}
	}
	return out
}

// junk reports whether a cut piece is no document of its own: the
// classifier called it not_document, or other with not one text line found
// on it (a document outside the catalogue still prints lines; the pieces
// the neural cropper cuts out of photographs of scenes, an eagle's head, a
// car's number plate, a filing drawer's folders, were answered other 0.68
// to 0.99 with none).
func junk(it Item) bool {
	switch it.Document.Type {
	case doctypes.NotDocument:
		return true
	case doctypes.Other:
		return it.TextLines != nil && *it.TextLines == 0
	}
	return false
}

// fragmentShare is the share of its page under which a cut piece answered
// no catalogue type (other, not_document, empty) is a fragment: a page
// whose every piece is one is looked at again whole (fragmentPages).
const fragmentShare = 0.05

// fragmentPages returns the indexes of the cut pages whose every cut
// document is a fragment: under fragmentShare of the page and answered no
// catalogue type. The neural cropper cuts such pieces out of a card that
// fills its picture (a scan cut to the card, turned a quarter: two pieces
// of 4 % and 1 %, not_document and a text-less other), where the whole page
// is the document.
func fragmentPages(pages []stages.CropReply, items []Item) []int {
	var out []int
	for pi, page := range pages {
		if len(page.Docs) == 0 || page.Docs[0].WholePage || page.PageWidth <= 0 || page.PageHeight <= 0 {
			continue
		}
		limit := fragmentShare * float64(page.PageWidth) * float64(page.PageHeight)
		all, found := true, false
		for _, it := range items {
			if it.Document.Page != pi+1 {
				continue
			}
			found = true
			if !doctypes.IsSpecial(it.Document.Type) || quadArea(it.Document.Coords) >= limit {
				all = false
				break
			}
		}
		if all && found {
			out = append(out, pi)
		}
	}
	return out
}

// quadArea is the area of a document's coords (four corners in the API's
// order), 0 when they are not four.
func quadArea(c [][2]int) float64 {
	q, _ := quadOf(c)
	return q.Area()
}

// secondLook looks again at each of the junk pages (junkPages) and the
// pages of fragments (fragmentPages) as a whole page, classified and
// oriented as one item, which replaces the pieces cut from the page when it
// says they were parts of something (replaceJunk): of a document, when the
// pieces were all not_document (the emblem of a closed cover) or all
// fragments; of a photograph of a scene, when text-less others were among
// them (a car's number plate). Otherwise the pieces stay: a photograph
// lying alone on a table is rightly the photograph.
func (r *Runner) secondLook(ctx context.Context, in Input, p params.Classify, pages []stages.CropReply, items []Item) ([]Item, error) {
	junk := junkPages(pages, items) // none with mode=classify_only: every page is whole
	looks := map[int]look{}
	for _, pi := range junk {
		looks[pi+1] |= lookJunk
	}
	for _, pi := range fragmentPages(pages, items) {
		if looks[pi+1] == 0 {
			junk = append(junk, pi)
		}
		looks[pi+1] |= lookFragments
	}
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
		g.Go(guarded(func() error {
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
		}))
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return replaceJunk(items, again, looks), nil
}

// look is why a page is looked at again whole (a set of reasons).
type look uint8

const (
	lookJunk      look = 1 << iota // every piece junk (junkPages)
	lookFragments                  // every piece a fragment (fragmentPages)
)

// replaceJunk puts each whole page of again in place of the items of its
// page, and leaves the other pages' items as they are. A page whose items
// are all not_document takes its whole page when that is a document
// (neither not_document nor empty); a page with text-less others among
// its items (see junk) takes it only when it is not_document: the page is
// a photograph of a scene. (Answered a document whole, such a page keeps
// its pieces: a small document, a passport's photo page of 255x365 pixels
// on the factory's table, can show no text line either.) A page of
// fragments (fragmentPages) takes its whole page when that is a catalogue
// type, and otherwise only by the junk pages' rules above when it is one:
// a small document outside the catalogue keeps its piece. looks tells why
// each page of again (numbered from 1) was looked at.
func replaceJunk(items, again []Item, looks map[int]look) []Item {
	textless := map[int]bool{}
	for _, it := range items {
		if it.Document.Type == doctypes.Other {
			textless[it.Document.Page] = true
		}
	}
	drop := map[int]bool{}
	var wholes []Item
	for _, it := range again {
		t := it.Document.Type
		document := t != doctypes.NotDocument && t != doctypes.Empty
		why := looks[it.Document.Page]
		take := why&lookJunk != 0 && ((document && !textless[it.Document.Page]) || (t == doctypes.NotDocument && textless[it.Document.Page]))
		if why&lookFragments != 0 && !doctypes.IsSpecial(t) {
			take = true
		}
		if take {
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

// dropTextless removes the text-less others (see junk: pieces of a
// wallpaper, a hand, a screen cut as documents) from the pages where
// another item is no junk: a document outside the catalogue still prints
// lines. Pages all of whose items are junk were looked at again whole
// (secondLook) and keep what that look left.
func dropTextless(items []Item) []Item {
	documents := map[int]bool{}
	for _, it := range items {
		if !junk(it) {
			documents[it.Document.Page] = true
		}
	}
	kept := items[:0:0]
	for _, it := range items {
		if documents[it.Document.Page] && it.Document.Type == doctypes.Other && junk(it) {
			continue
		}
		kept = append(kept, it)
	}
	return kept
}
