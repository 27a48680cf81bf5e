package roles

import (
	"context"

	"docsuite/pkg/config"
	"docsuite/pkg/cropsvc"
	"docsuite/pkg/decode"
	"docsuite/pkg/membudget"
)

// The ocr and fraud workers' own work on a decoded page, in bytes a pixel
// of the page, beside what decoding it takes (decode.Cost), and a
// request's fixed share. The figures are peak RSS of the worker, one
// request on a fresh process, less its idle RSS and the page as decoded
// (docs/operations.md, "Memory").
const (
	// ocrPageBytes is what reading a page's text adds: measured at 8.5
	// bytes a pixel on a 10,000 × 10,000 baseline 4:2:0 JPEG of text
	// lines around a document (its grey copy shrunk for Tesseract, the
	// document's crop and the rest of the page read), 1.5 more for
	// margin. A blank page is not read and adds next to nothing.
	ocrPageBytes = 10
	// fraudPageBytes is what checking a page's documents adds: measured at
	// 0.9 bytes a pixel of the page for a document a third of it lying on
	// its side (2.6 bytes a pixel of the document: its upright copy and
	// the checks' images), taken for a document as large as the page, 1.4
	// more for margin. The documents of one page do not overlap: checked
	// side by side they hold no more than one as large as the page.
	fraudPageBytes = 4
	// pageRequestBytes is a request's share beside its page: the input
	// file (up to MAX_FILE_BYTES, 30 MB) and the smaller images of the
	// work.
	pageRequestBytes = 64 << 20
)

// pageMemory is the size, in bytes, of the page budget of a worker w
// configures: PAGE_MEMORY_BYTES, else membudget.Default.
func pageMemory(w config.Worker) int64 {
	if w.PageMemory > 0 {
		return w.PageMemory
	}
	return membudget.Default()
}

// pageBudget is the budget of the pages a role decodes: the one d shares
// between the roles of one process (the all-in-one's), else a budget of
// its own as w configures it.
func pageBudget(d Deps, w config.Worker) *membudget.Budget {
	if d.Pages != nil {
		return d.Pages
	}
	return membudget.New(pageMemory(w))
}

// SharedPageBudget is the one budget the cropper, ocr and fraud roles of
// one process share (the all-in-one's): PAGE_MEMORY_BYTES, else the Go
// heap's soft limit. Three
// budgets of the whole soft limit each would let the process take three
// times its memory.
func SharedPageBudget(w config.Worker) *membudget.Budget {
	return membudget.New(pageMemory(w))
}

// pageEstimate is the memory a worker's work on a page of cost c is
// expected to take at its peak: decoding it (the decoder's leftovers may
// not have been collected yet when the work begins) and perPixel bytes a
// pixel of its own.
func pageEstimate(c decode.Cost, perPixel int64) int64 {
	return c.Peak + perPixel*c.Pixels + pageRequestBytes
}

// admitPage admits page i of doc to b (cropsvc.AdmitPage), worked on at
// perPixel bytes a pixel beside its decoding (pageEstimate).
func admitPage(ctx context.Context, d Deps, b *membudget.Budget, role, taskID string, doc decode.Document, i int, perPixel int64) (func(), error) {
	return cropsvc.AdmitPage(ctx, d.Log, b, role, taskID, doc, i, func(c decode.Cost) int64 { return pageEstimate(c, perPixel) })
}
