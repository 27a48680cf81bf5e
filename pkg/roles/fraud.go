package roles

import (
	"context"
	"encoding/json"
	"fmt"
	"image"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/config"
	"docsuite/pkg/cropsvc"
	"docsuite/pkg/decode"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/fraud"
	"docsuite/pkg/fraud/zonecheck"
	"docsuite/pkg/geom"
	"docsuite/pkg/membudget"
	"docsuite/pkg/params"
	"docsuite/pkg/pipeline"
	"docsuite/pkg/stages"
)

// FraudItem is a classified document with its forgery check.
type FraudItem struct {
	pipeline.Item
	Fraud fraud.Result `json:"fraud"`
}

// FraudResponse is the body of /pipelines/run/fraud: the classify body
// (with check_fake's fake and fake_reasons always filled) whose items each
// carry a fraud object.
type FraudResponse struct {
	*pipeline.ClassifyResponse
	Items []FraudItem `json:"items"`
}

// Fraud serves the fraud stage until ctx ends: classification through the
// crop, classify and orient stages, then the forgery signs of every
// document found. The zone check's text models run on ONNX Runtime as m
// configures it (threads, ALLOW_GPU); the other checks run on the CPU.
func Fraud(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models, tempDir string) error {
	sweepTemp(ctx, d.Log, tempDir, c.Timeout())
	meta, err := fakecheck.New()
	if err != nil {
		return fmt.Errorf("fraud: %w", err)
	}
	an, err := fraud.New("")
	if err != nil {
		d.Log.Error("forgery checks not available: fraud answers 503", "err", err)
	}
	// The zone check's text models and Tesseract load beside the stage's
	// subscription, so the worker answers from its start; a request waits
	// for the load, and without them mrz_mismatch is not checked.
	zc := loadOptional(d.Log, "machine-readable zone check not available (text models or Tesseract rus missing): mrz_mismatch is not checked",
		func() (*zoneCheck, error) { return openZoneCheck(m, d, workerSize(w)) })
	defer func() {
		if z, err := zc.get(context.Background()); err == nil {
			z.close()
		}
	}()
	pb := ownPageBudget(d, w, "fraud")
	d.Log.Info("page memory budget", "role", "fraud", "page_memory_bytes", pb.Size(), "shared", d.Pages != nil)
	run := func(ctx context.Context, req stages.MethodRequest) (json.RawMessage, error) {
		switch {
		case req.Method != "fraud":
			return nil, fmt.Errorf("fraud: unknown method %q", req.Method)
		case an == nil:
			return nil, apierr.Wrap(apierr.ModelNotLoaded, err, "Forgery checks not loaded: "+err.Error())
		}
		a := an
		if z, zerr := zc.get(ctx); zerr == nil {
			withZone := *an
			withZone.Zone = z.checker
			a = &withZone
		} else if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return checkFraud(ctx, d, a, meta, pb, req, tempDir, workerSize(w))
	}
	h := methodHandler(d, run)
	probe := func() bus.Readiness {
		if an == nil {
			return bus.Readiness{Ready: false, Reason: "forgery checks not loaded: " + err.Error()}
		}
		return bus.Readiness{Ready: true}
	}
	return serveStage(ctx, d, c, w, stages.Fraud, h, probe)
}

// zoneCheck is the loaded zone check and what closes its models.
type zoneCheck struct {
	checker *zonecheck.Checker
	close   func()
}

// openZoneCheck loads the extraction engine (openExtractor: PP-OCRv4 on
// ONNX Runtime as m configures it, and a Tesseract `rus` pool of size
// engines) for the zone check.
func openZoneCheck(m config.Models, d Deps, size int) (*zoneCheck, error) {
	ex, err := openExtractor(m, d.Log, size)
	if err != nil {
		return nil, err
	}
	return &zoneCheck{checker: zonecheck.New(ex.zone, ex.x), close: ex.close}, nil
}

// checkFraud classifies the stored input, decodes its pages as the cropper
// did and checks every document. The file's metadata is checked once, by
// fc, for check_fake's top-level result and the editor_metadata sign.
// Up to limit documents are checked at once, their pages decoded as the
// page budget pb admits them.
func checkFraud(ctx context.Context, d Deps, an *fraud.Analyzer, fc *fakecheck.Checker, pb *membudget.Budget, req stages.MethodRequest, tempDir string,
	limit int) (json.RawMessage, error) {
	var p params.Classify
	if raw, err := json.Marshal(req.Params); err == nil {
		_ = json.Unmarshal(raw, &p)
	}
	p.CheckFake = false // checked below: the metadata result is part of every fraud answer
	run := pipeline.New(d.NC, d.Store, pipeline.Limits{MaxPages: req.MaxPages, MaxPixels: req.MaxPixels, MaxFilePixels: req.MaxFilePixels}, d.Stages, nil)
	cls, err := run.Classify(ctx, pipeline.Input{TaskID: req.TaskID, InputKey: req.InputKey, Size: req.Size}, p, pageCount(d, req.TaskID))
	if err != nil {
		return nil, err
	}
	data, err := d.Store.Get(ctx, req.InputKey)
	if err != nil {
		return nil, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	meta := fc.Check(data)
	cls.SetFake(meta)
	format, _ := decode.Sniff(data)
	src := fraud.Source{SharedShapes: format == decode.DJVU}
	doc, err := decode.Open(ctx, data, decode.Options{DPI: p.DPI, Quality: p.Quality, PDFRawImages: p.PDFRawImages,
		AutoPDFRawImages: p.AutoPDFRawImages, MaxPages: req.MaxPages, MaxPixels: req.MaxPixels,
		MaxFilePixels: req.MaxFilePixels, TempDir: tempDir})
	if err != nil {
		return nil, cropsvc.DecodeError(err)
	}
	defer doc.Close()
	resp := FraudResponse{ClassifyResponse: cls, Items: make([]FraudItem, len(cls.Items))}
	// Documents are checked side by side, as many as the worker runs
	// requests at once; a page is decoded once, by its first document, once
	// the page budget admits it, and let go after its last.
	pages := fraudPages(ctx, d, pb, req.TaskID, doc, cls.Items)
	err = eachItem(ctx, d, req.TaskID, cls.Items, cls.PagesCount, limit, func(ctx context.Context, i int) error {
		it := cls.Items[i]
		defer pages.done(it.Document.Page)
		pg, err := pages.get(it.Document.Page)
		if err != nil {
			return cropsvc.DecodeError(err)
		}
		var q geom.Quad
		for i, c := range it.Document.Coords {
			q[i] = geom.Point{X: float64(c[0]), Y: float64(c[1])}
		}
		signs := an.Metadata(meta, it.Document.Coords)
		s := src
		s.Type = it.Document.Type
		pix, err := an.Document(ctx, pg, q, geom.Rotation(it.Document.Rotation), s)
		if err != nil {
			return fmt.Errorf("fraud: page %d: %w", it.Document.Page, err)
		}
		resp.Items[i] = FraudItem{Item: it, Fraud: fraud.Judge(append(signs, pix...))}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(resp)
}

// fraudPages is the page cache of a fraud request's items on doc: a page
// is decoded once the page budget pb admits it, and its share given back
// after its last document is checked. The items come in page order (the
// pipeline sorts them), so eachItem starts every document of a page
// before any of the next: a document waiting for its page's share never
// holds the slot the last document of a page already admitted needs.
func fraudPages(ctx context.Context, d Deps, pb *membudget.Budget, taskID string, doc decode.Document, items []pipeline.Item) *pageCache {
	return newPageCache(items, func(n int) (image.Image, func(), error) {
		leave, err := admitPage(ctx, d, pb, "fraud", taskID, doc, n-1, fraudPageBytes)
		if err != nil {
			return nil, nil, err
		}
		img, err := doc.Page(ctx, n-1)
		return img, leave, err
	})
}
