package roles

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/config"
	"docsuite/pkg/cropsvc"
	"docsuite/pkg/decode"
	"docsuite/pkg/membudget"
	"docsuite/pkg/ocr"
	"docsuite/pkg/params"
	"docsuite/pkg/pipeline"
	"docsuite/pkg/stages"
)

// FulltextPage is one page of a full-text answer.
type FulltextPage struct {
	Number int `json:"page"` // 1-based
	ocr.Page
}

// FulltextResponse is the body of /pipelines/run/fulltext.
type FulltextResponse struct {
	TaskID     string         `json:"task_id"`
	Pages      []FulltextPage `json:"pages"`
	Text       string         `json:"text"`
	PagesCount int            `json:"pages_count"`
	PageCount  int            `json:"page_count"`
	TaskTags   []string       `json:"task_tags,omitempty"`
	Code       int            `json:"code"`
	Message    string         `json:"message"`
	Errno      int            `json:"errno"`
	Traceback  *string        `json:"traceback"`
	Detail     []any          `json:"detail"`
}

// OCR serves the ocr stage until ctx ends: full-text OCR of every page
// (fulltext) and data extraction (recognize: classification over the
// stage workers, then each document's fields, normalised as e configures).
// A missing engine answers 503 model_not_loaded naming what is missing,
// never an invented field. The extraction's text models run on ONNX
// Runtime as m configures it (threads, ALLOW_GPU). An unreadable
// subdivision directory stops the role at start.
func OCR(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models, e config.Extraction, tempDir string) error {
	sweepTemp(ctx, d.Log, tempDir, c.Timeout())
	norm, err := openNormalizers(e)
	if err != nil {
		return err
	}
	d.Log.Info("extraction references", "subdivision_codes", norm.dir.Len(), "address_service", e.AddressServiceURL != "")
	size := workerSize(w) // as many engines as requests the worker runs at once
	pb := ownPageBudget(d, w, "ocr")
	d.Log.Info("page memory budget", "role", "ocr", "page_memory_bytes", pb.Size(), "shared", d.Pages != nil)
	eng, err := ocr.New(size)
	if err != nil {
		d.Log.Error("OCR engine not available: fulltext answers 503", "err", err)
	} else {
		defer eng.Close()
	}
	// The extraction models load beside the worker's subscription; a
	// request waits for them (fulltext reads machine-readable zones with
	// them, and without them when they failed to load).
	var ext *extractor
	var xerr error
	extReady := make(chan struct{})
	go func() {
		defer close(extReady)
		if ext, xerr = openExtractor(m, d.Log, size); xerr != nil {
			d.Log.Error("data extraction not available: recognize answers 503", "err", xerr)
		}
	}()
	defer func() {
		<-extReady
		if ext != nil {
			ext.close()
		}
	}()
	run := func(ctx context.Context, req stages.MethodRequest) (json.RawMessage, error) {
		// fulltext reads zones with the extraction's reader: it waits for
		// the models too, and reads without them when they failed.
		select {
		case <-extReady:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		switch {
		case req.Method == "recognize" && ext == nil:
			return nil, apierr.Wrap(apierr.ModelNotLoaded, xerr, "Data extraction models not loaded: "+xerr.Error())
		case req.Method == "recognize":
			return recognize(ctx, d, ext.x, norm, pb, req, tempDir)
		case req.Method != "fulltext":
			return nil, fmt.Errorf("ocr: unknown method %q", req.Method)
		case eng == nil:
			return nil, apierr.Wrap(apierr.ModelNotLoaded, err, "OCR engine not loaded: "+err.Error())
		}
		var zr ocr.ZoneReader
		if ext != nil {
			zr = ext.zone.WithSecondReading()
		}
		return fulltext(ctx, d, eng, zr, pb, req, tempDir)
	}
	h := methodHandler(d, run)
	probe := func() bus.Readiness {
		if eng == nil {
			return bus.Readiness{Ready: false, Reason: "OCR engine not loaded: " + err.Error()}
		}
		return bus.Readiness{Ready: true}
	}
	return serveStage(ctx, d, c, w, stages.OCR, h, probe)
}

// fulltext decodes every page of the stored input and reads it (see
// readPage), pages side by side within the page budget pb, reporting each
// page done.
func fulltext(ctx context.Context, d Deps, eng *ocr.Engine, zr ocr.ZoneReader, pb *membudget.Budget, req stages.MethodRequest, tempDir string) (json.RawMessage, error) {
	var p params.Classify
	if raw, err := json.Marshal(req.Params); err == nil {
		_ = json.Unmarshal(raw, &p)
	}
	data, err := d.Store.Get(ctx, req.InputKey)
	if err != nil {
		return nil, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	doc, err := decode.Open(ctx, data, decode.Options{DPI: p.DPI, Quality: p.Quality, PDFRawImages: p.PDFRawImages,
		AutoPDFRawImages: p.AutoPDFRawImages, MaxPages: req.MaxPages, MaxPixels: req.MaxPixels,
		MaxFilePixels: req.MaxFilePixels, TempDir: tempDir})
	if err != nil {
		return nil, cropsvc.DecodeError(err)
	}
	defer doc.Close()
	run := pipeline.New(d.NC, d.Store, pipeline.Limits{MaxPages: req.MaxPages, MaxPixels: req.MaxPixels, MaxFilePixels: req.MaxFilePixels}, d.Stages, nil)
	in := pipeline.Input{TaskID: req.TaskID, InputKey: req.InputKey, Size: req.Size}
	n := doc.Pages()
	resp := FulltextResponse{TaskID: req.TaskID, PagesCount: n, PageCount: n, TaskTags: p.TaskTags, Code: 200, Message: "OK", Detail: []any{}}
	// Pages are read side by side, as many as the engine has Tesseracts
	// and the page budget admits (one decoded page each in memory), and
	// counted done as they finish.
	pages := make([]ocr.Page, n)
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(eng.Size())
	for i := 0; i < n; i++ {
		g.Go(func() error {
			page, err := readPage(gctx, d, eng, zr, pb, run, in, p, doc, i)
			if err != nil {
				return err
			}
			pages[i] = page
			mu.Lock()
			defer mu.Unlock()
			done++
			reportProgress(d, req.TaskID, done, n)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, page := range pages {
		if i > 0 {
			resp.Text += "\f"
		}
		resp.Text += page.Text
		resp.Pages = append(resp.Pages, FulltextPage{Number: i + 1, Page: page})
	}
	return json.Marshal(resp)
}

// readPage decodes page i and reads it: the documents the crop stage finds
// on it one by one, then the rest of the page (ocr.Engine.ReadDocuments);
// a page where none is found, and every page with mode=classify_only or
// classify_crop (no cutting), is read whole. The crop stage is asked
// before the page is admitted to pb and decoded: no decoded page waits on
// the cropper, which shares pb in the all-in-one.
func readPage(ctx context.Context, d Deps, eng *ocr.Engine, zr ocr.ZoneReader, pb *membudget.Budget, run *pipeline.Runner, in pipeline.Input,
	p params.Classify, doc decode.Document, i int) (ocr.Page, error) {
	var cuts []ocr.Cut
	if !p.NoCrop() {
		var err error
		if cuts, err = pageCuts(ctx, d, run, in, p, i); err != nil {
			return ocr.Page{}, err
		}
	}
	leave, err := admitPage(ctx, d, pb, "ocr", in.TaskID, doc, i, ocrPageBytes)
	if err != nil {
		return ocr.Page{}, err
	}
	defer leave()
	img, err := doc.Page(ctx, i)
	if err != nil {
		return ocr.Page{}, cropsvc.DecodeError(err)
	}
	if len(cuts) == 0 {
		return eng.ReadZoned(ctx, img, zr)
	}
	return eng.ReadDocuments(ctx, img, cuts, zr)
}

// reportProgress tells the gateway following the task that done pages of
// total are read; a report lost is logged, never failing the work.
func reportProgress(d Deps, taskID string, done, total int) {
	if err := bus.PublishProgress(d.NC, taskID, done, total); err != nil {
		d.Log.Warn("progress not reported", "task_id", taskID, "err", err)
	}
}

// firstTurns asks the orient stage how a crop turns upright, the turns
// its text is read with first (a mirrored answer's turns alone: a wrong
// mirror would leave the text unreadable whichever way it turned). The
// answer is a hint: without it (no orienter answering) the reading finds
// the turn itself, and the miss is logged.
func firstTurns(ctx context.Context, d Deps, run *pipeline.Runner, cropKey string) int {
	rep, err := run.Orient(ctx, cropKey)
	if err != nil {
		d.Log.Warn("fulltext: orienter not asked, the text finds its own way up", "crop", cropKey, "err", err)
		return 0
	}
	return rep.Rotation.Turns()
}

// pageCuts asks the crop stage for the documents of page i and reads
// their stored crops; none when the page itself is the only item.
func pageCuts(ctx context.Context, d Deps, run *pipeline.Runner, in pipeline.Input, p params.Classify, i int) ([]ocr.Cut, error) {
	rep, err := run.CropPage(ctx, in, p, i)
	if err != nil {
		return nil, err
	}
	var cuts []ocr.Cut
	for _, f := range rep.Docs {
		if f.WholePage {
			continue
		}
		img, err := readCrop(ctx, d.Store, f.CropKey)
		if err != nil {
			return nil, err
		}
		cuts = append(cuts, ocr.Cut{Quad: f.Quad, Img: img, Turns: firstTurns(ctx, d, run, f.CropKey)})
	}
	return cuts, nil
}
