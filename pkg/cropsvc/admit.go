package cropsvc

import (
	"context"
	"fmt"
	"log/slog"

	"docsuite/pkg/decode"
	"docsuite/pkg/membudget"
	"docsuite/pkg/stages"
)

// The cropper's own work on a decoded page, in bytes a pixel of the page,
// beside what decoding it takes (decode.Cost), and a request's fixed share.
const (
	// findBytes is what finding the documents adds while the decoder's
	// leftovers may not have been collected yet: measured at about 3
	// bytes a pixel (an RGBA, grey or palette PNG page of 100 megapixels,
	// one request, less what decoding it holds), 1 more for margin.
	findBytes = 4
	// cutBytes is what cutting a document out adds beside the page: the
	// page's part under it as a BGR Mat and the warped Mat, then the
	// warped Mat and its RGBA image (crop.Warp closes the page's part
	// once warped: at most 3 + 4 bytes a pixel of a document as large as
	// the page), and the page's luma the corners are refined on (1).
	cutBytes = 3 + 4 + 1
	// requestBytes is a request's share beside its page: the input file
	// (up to MAX_FILE_BYTES, 30 MB) and the smaller images of the search.
	requestBytes = 64 << 20
)

// estimate is the memory one crop request on a page of cost c is
// expected to take at its peak: decoding it and looking for documents, or
// holding it while a document is cut out.
func estimate(c decode.Cost) int64 {
	return max(c.Peak+findBytes*c.Pixels, c.Page+cutBytes*c.Pixels) + requestBytes
}

// admit waits until the page of req fits the cropper's memory budget
// (AdmitPage), and returns the function that gives the page's share back,
// once its documents are stored.
func (s *Service) admit(ctx context.Context, doc decode.Document, req stages.CropRequest) (func(), error) {
	return AdmitPage(ctx, s.log, s.budget, "cropper", req.TaskID, doc, req.Page, estimate)
}

// AdmitPage waits until page i of doc, whose peak estimate gives from its
// decoding cost, fits b beside the pages being worked on, or ctx ends; a
// page larger than the whole budget is admitted alone (membudget). A wait
// is logged at DEBUG, "page waits for memory". It returns the function that
// gives the page's share back, to be called once the page is let go. A
// page that cannot be decoded (over the pixel limit) is refused with that
// error, as decoding it would. The cropper, ocr and fraud workers admit
// their pages so.
func AdmitPage(ctx context.Context, log *slog.Logger, b *membudget.Budget, role, taskID string, doc decode.Document, i int,
	estimate func(decode.Cost) int64) (func(), error) {
	c, err := decode.PageCost(ctx, doc, i)
	if err != nil {
		return nil, DecodeError(err)
	}
	need := estimate(c)
	leave, err := b.Acquire(ctx, need, func() {
		log.DebugContext(ctx, "page waits for memory", "role", role, "task_id", taskID, "page", i, "pixels", c.Pixels,
			"estimate_bytes", need, "in_use_bytes", b.InUse(), "budget_bytes", b.Size())
	})
	if err != nil {
		return nil, fmt.Errorf("%s: page %d: %w", role, i+1, err)
	}
	return leave, nil
}
