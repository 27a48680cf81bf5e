// Package cropsvc is the cropper stage's service wrapper: it reads a
// stored input, decodes the requested page, finds the documents on it,
// cuts each out perspective-corrected, measures its quality and stores the
// crops for the classifier and orienter.
package cropsvc

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"log/slog"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/crop"
	"docsuite/pkg/decode"
	"docsuite/pkg/geom"
	"docsuite/pkg/membudget"
	"docsuite/pkg/quality"
	"docsuite/pkg/rawimg"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// Service is the cropper.
type Service struct {
	store   store.Store
	tempDir string
	docs    *docCache
	log     *slog.Logger
	neural  NeuralSource
	// planesAbove is the size, in pixels, above which a JPEG page stored
	// whole keeps its YCbCr planes: the constant planesAbove, which a
	// test lowers.
	planesAbove int
	// budget admits the pages being cut by their estimated memory.
	budget *membudget.Budget
}

// planesAbove is the size, in pixels, above which a JPEG page that is
// itself the item is stored as its YCbCr planes (1.5 bytes a pixel at
// 4:2:0), for the stages to convert only what they need (400 MB as RGBA
// at 100 megapixels). A smaller one is converted to RGBA once, here, as
// every page was before: the readers (the text detector, the zone and word
// readers) then see the very pixels they were tuned and measured on (a
// greyscale taken from the luma plane differs by a level here and there,
// and tipped a small real passport's zone from invalid to valid, and its
// type, in a trial), and no stage converts it again.
const planesAbove = 16_000_000

// Finder finds the documents on a page: the neural cropper (crop.Neural).
type Finder interface {
	Find(ctx context.Context, page image.Image) ([]crop.Found, error)
}

// NeuralSource returns the neural cropper, waiting while its model loads;
// when the model could not be loaded it returns the catalogue's
// model_not_loaded error, which the request answers (503). Requests with
// simple_cropper=true or without cutting never call it.
type NeuralSource func(ctx context.Context) (Finder, error)

// New builds the cropper service. neural supplies the default (neural)
// cropper; simple_cropper=true uses the classical OpenCV one, and so does
// every request when neural is nil. budget admits the pages decoded and
// cut at once (PAGE_MEMORY_BYTES; see admit), shared with other roles of
// the process where they decode pages too; nil takes one of
// membudget.Default's size.
func New(st store.Store, tempDir string, log *slog.Logger, neural NeuralSource, budget *membudget.Budget) *Service {
	if budget == nil {
		budget = membudget.New(membudget.Default())
	}
	return &Service{store: st, tempDir: tempDir, docs: newDocCache(4, 30*time.Second), log: log, neural: neural,
		planesAbove: planesAbove, budget: budget}
}

// MemoryBudget is the size, in bytes, of the budget the pages being cut
// share.
func (s *Service) MemoryBudget() int64 { return s.budget.Size() }

// Close releases cached documents.
func (s *Service) Close() { s.docs.close() }

// Crop serves one crop request.
func (s *Service) Crop(ctx context.Context, req stages.CropRequest) (stages.CropReply, error) {
	doc, release, err := s.docs.get(ctx, req.InputKey, func(ctx context.Context) (decode.Document, error) {
		data, err := s.store.Get(ctx, req.InputKey)
		if err != nil {
			return nil, fmt.Errorf("cropper: read input: %w", err)
		}
		opts := decode.Options{DPI: req.Decode.DPI, Quality: req.Decode.Quality, PDFRawImages: req.Decode.PDFRawImages,
			AutoPDFRawImages: req.Decode.AutoPDFRawImages, MaxPages: req.Decode.MaxPages, MaxPixels: req.Decode.MaxPixels,
			MaxFilePixels: req.Decode.MaxFilePixels, TempDir: s.tempDir}
		d, err := decode.Open(ctx, data, opts)
		return d, DecodeError(err)
	})
	if err != nil {
		return stages.CropReply{}, err
	}
	defer release()
	total := doc.Pages()
	if total == 1 {
		// A single image keeps its decoded page: cached, it would stay in
		// memory outside the budget after this request.
		defer s.docs.drop(req.InputKey)
	}
	if req.Page < 0 || req.Page >= total {
		return stages.CropReply{}, fmt.Errorf("cropper: page %d of a %d-page file", req.Page, total)
	}
	leave, err := s.admit(ctx, doc, req)
	if err != nil {
		return stages.CropReply{}, err
	}
	defer leave()
	page, err := doc.Page(ctx, req.Page)
	if err != nil {
		return stages.CropReply{}, DecodeError(err)
	}
	b := page.Bounds()
	reply := stages.CropReply{PagesTotal: total, PageWidth: b.Dx(), PageHeight: b.Dy()}
	quads, err := s.find(ctx, page, req)
	if err != nil {
		return stages.CropReply{}, err
	}
	for i, q := range quads {
		f, err := s.cut(ctx, page, q.quad, q.whole, req, i)
		if err != nil {
			return stages.CropReply{}, err
		}
		reply.Docs = append(reply.Docs, f)
	}
	return reply, nil
}

type found struct {
	quad  geom.Quad
	whole bool
}

// find locates the documents of a page with the neural cropper, or the
// simple one when the request asks for it; when none is found, or cutting
// is off, the page itself is the one item.
func (s *Service) find(ctx context.Context, page image.Image, req stages.CropRequest) ([]found, error) {
	b := page.Bounds()
	whole := []found{{quad: crop.WholePage(b.Dx(), b.Dy()), whole: true}}
	if req.WholePage {
		return whole, nil
	}
	var docs []crop.Found
	var err error
	if req.Simple || s.neural == nil {
		docs, err = crop.Simple(page, crop.SimpleOptions{})
	} else {
		var nf Finder
		if nf, err = s.neural(ctx); err != nil {
			return nil, err
		}
		docs, err = nf.Find(ctx, page)
	}
	if err != nil {
		return nil, fmt.Errorf("cropper: find documents: %w", err)
	}
	if len(docs) == 0 {
		return whole, nil
	}
	out := make([]found, len(docs))
	for i, d := range docs {
		out[i] = found{quad: d.Quad}
	}
	return out, nil
}

// cut warps one document out of the page, measures it and stores it.
func (s *Service) cut(ctx context.Context, page image.Image, q geom.Quad, whole bool, req stages.CropRequest, idx int) (stages.Found, error) {
	var img image.Image = page
	if !whole {
		var err error
		img, err = crop.Warp(page, q)
		if err != nil {
			return stages.Found{}, fmt.Errorf("cropper: warp document %d: %w", idx, err)
		}
	}
	key := fmt.Sprintf("tasks/%s/p%d_d%d.raw", req.TaskID, req.Page, idx)
	// The crop's pixels go to the store where they lie, not copied first.
	raw := rawimg.NewReader(s.storedLayout(img))
	if err := s.store.PutReader(ctx, key, raw, raw.Size()); err != nil {
		return stages.Found{}, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	b := img.Bounds()
	sc := quality.Measure(img)
	return stages.Found{Quad: q, CropKey: key, Width: b.Dx(), Height: b.Dy(), WholePage: whole,
		Quality: stages.Quality{ExposureHigh: sc.ExposureHigh, ExposureLow: sc.ExposureLow, Sharpness: sc.Sharpness, ShortSide: sc.ShortSide}}, nil
}

// storedLayout is img as it is stored: a YCbCr image (a JPEG page that is
// itself the item) of at most planesAbove pixels converted to RGBA, any
// other as it is.
func (s *Service) storedLayout(img image.Image) image.Image {
	y, ok := img.(*image.YCbCr)
	if b := img.Bounds(); !ok || b.Dx()*b.Dy() > s.planesAbove {
		return img
	}
	b := y.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), y, b.Min, draw.Src)
	return rgba
}

// DecodeError maps decoding failures onto the catalogue: every input
// problem is a 422 naming what is wrong. Its detail is the decoder's
// message less what a decoding tool wrote to stderr (decode.ClientText),
// which may quote the file; the error's cause, which the roles log, keeps a
// line of it.
func DecodeError(err error) error {
	if err == nil {
		return nil
	}
	var le *decode.LimitError
	var rt *decode.RenderTimeError
	switch {
	case errors.As(err, &le) && le.Limit == decode.LimitPages:
		return &apierr.Error{Code: apierr.TooManyPages, Cause: err, Message: fmt.Sprintf("File has %d pages; the limit is %d (MAX_PAGES)", le.Value, le.Max),
			Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.limit.pages"}}}
	case errors.As(err, &le) && le.Limit == decode.LimitFilePixels:
		msg := fmt.Sprintf("File's %d pages have %d pixels together; the limit is %d (MAX_FILE_PIXELS)", le.Pages, le.Value, le.Max)
		if n := le.FitDPI(); n >= 1 {
			msg += fmt.Sprintf(" at dpi %d; dpi=%d or lower fits", le.DPI, n)
		}
		return &apierr.Error{Code: apierr.TooManyPixels, Cause: err, Message: msg,
			Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.limit.file_pixels"}}}
	case errors.As(err, &le):
		msg := fmt.Sprintf("Page has %d pixels; the limit is %d (MAX_PIXELS)", le.Value, le.Max)
		if n := le.FitDPI(); n >= 1 {
			msg += fmt.Sprintf(" at dpi %d; dpi=%d or lower fits", le.DPI, n)
		}
		return &apierr.Error{Code: apierr.TooManyPixels, Cause: err, Message: msg,
			Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.limit.pixels"}}}
	case errors.Is(err, decode.ErrUnsupported):
		return &apierr.Error{Code: apierr.UnsupportedFormat, Cause: err, Message: unsupportedMessage(err),
			Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.format"}}}
	case errors.Is(err, decode.ErrPDFPassword):
		return &apierr.Error{Code: apierr.CorruptFile, Cause: err,
			Message: "PDF is protected by a password, which is needed to open it: send the file without password protection",
			Detail:  []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.corrupt"}}}
	case errors.As(err, &rt):
		return &apierr.Error{Code: apierr.CorruptFile, Cause: err,
			Message: fmt.Sprintf("Page %d did not render within %.0f s at dpi %d (the renderer's time limit): its drawing is too complex to render here; a lower dpi renders faster",
				rt.Page+1, rt.Limit.Seconds(), rt.DPI),
			Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.corrupt"}}}
	case errors.Is(err, decode.ErrCorrupt):
		return &apierr.Error{Code: apierr.CorruptFile, Cause: err,
			Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.corrupt"}}}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return err
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return err
	}
	return &apierr.Error{Code: apierr.CorruptFile, Cause: err,
		Detail: []apierr.Detail{{Loc: []string{"body", "image"}, Msg: decode.ClientText(err), Type: "value_error.corrupt"}}}
}

// unsupportedMessages say what a file no decoder here reads is and what to
// send instead; a file of another unsupported kind keeps the catalogue's
// message.
var unsupportedMessages = []struct {
	err error
	msg string
}{
	{decode.ErrIndirectDJVU, "Indirect DjVu document: the file is only the index of pages kept in separate files; send the document as one bundled DjVu file (djvmcvt -b index.djvu bundled.djvu)"},
	{decode.ErrJPEGPrecision, "JPEG of 12 bits a sample (as medical and archival tools write): it cannot be decoded here, nor shown by most viewers; send it as an 8-bit JPEG, PNG or TIFF"},
	{decode.ErrJPEGLossless, "Lossless JPEG (as medical imaging and some archival tools write): it cannot be decoded here, nor shown by most viewers; send it as a baseline JPEG, PNG or TIFF"},
	{decode.ErrJPEGHierarchical, "Hierarchical JPEG: it cannot be decoded here, nor shown by most viewers; send it as a baseline JPEG, PNG or TIFF"},
}

// unsupportedMessage is the message of an ErrUnsupported: the one of
// unsupportedMessages that err wraps, or "" for the catalogue's.
func unsupportedMessage(err error) string {
	for _, m := range unsupportedMessages {
		if errors.Is(err, m.err) {
			return m.msg
		}
	}
	return ""
}
