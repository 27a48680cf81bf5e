package roles

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"

	"log/slog"
	"net/url"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"docsuite/pkg/address"
	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
	"docsuite/pkg/cropsvc"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/decode"
	"docsuite/pkg/extract"
	"docsuite/pkg/membudget"
	"docsuite/pkg/mrz"
	"docsuite/pkg/ocr"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/params"
	"docsuite/pkg/pipeline"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/stages"
	"docsuite/pkg/subdivision"
)

// RecognizeItem is one document of a recognize answer.
type RecognizeItem struct {
	DocType string         `json:"doc_type"`
	Fields  extract.Fields `json:"fields"`
	// DocCoords are the document's corners on the page (top-left,
	// top-right, bottom-left, bottom-right of the upright document).
	DocCoords  [][2]int `json:"doc_coords"`
	Confidence float64  `json:"confidence"`
	Page       int      `json:"page"`
	Rotation   int      `json:"rotation"`
	Crop       string   `json:"crop,omitempty"`
}

// RecognizeResponse is the body of /recognize and /pipelines/run/recognize.
type RecognizeResponse struct {
	TaskID     string          `json:"task_id"`
	Items      []RecognizeItem `json:"items"`
	TaskTags   []string        `json:"task_tags,omitempty"`
	PagesCount int             `json:"pages_count"`
	PageCount  int             `json:"page_count"`
	DocsCount  int             `json:"docs_count"`
	Code       int             `json:"code"`
	Message    string          `json:"message"`
	Errno      int             `json:"errno"`
	Traceback  *string         `json:"traceback"`
	Detail     []any           `json:"detail"`
}

// extractor is the data-extraction engine of the ocr worker and what it
// holds open.
type extractor struct {
	x     *extract.Extractor
	zone  *mrz.Reader // the zone reader x reads with
	close func()
}

// openExtractor loads the PP-OCRv4 models (models from
// .cache/ocr-models/) and a Tesseract `rus` pool of size engines. ONNX
// Runtime runs them as m configures it, as it runs the classifier: the
// library ONNXRUNTIME_LIB, MODEL_THREADS intra-op threads a session, and
// the CUDA provider when ALLOW_GPU is set and CUDA is present; each
// session's provider is logged to log.
func openExtractor(m config.Models, log *slog.Logger, size int) (*extractor, error) {
	rt, err := onnxrt.Open(onnxrt.Options{Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: log})
	if err != nil {
		return nil, fmt.Errorf("extraction engine: %w", err)
	}
	e, err := ppocr.Open(rt, "")
	if err != nil {
		_ = rt.Close()
		return nil, fmt.Errorf("extraction engine: %w", err)
	}
	o, err := ocr.New(size, "rus")
	if err != nil {
		_ = e.Close()
		_ = rt.Close()
		return nil, fmt.Errorf("extraction engine: %w", err)
	}
	rd := mrz.NewReader(e)
	x, err := extract.New(rd, o)
	if err != nil {
		o.Close()
		_ = e.Close()
		_ = rt.Close()
		return nil, err
	}
	return &extractor{x: x, zone: rd, close: func() { o.Close(); _ = e.Close(); _ = rt.Close() }}, nil
}

// normalizers are the outside references fields are normalised against:
// the subdivision directory (use_internal_api) and the address service
// (normalization_fias; nil when not configured).
type normalizers struct {
	dir  *subdivision.Directory
	addr *address.Client
}

// openNormalizers loads the subdivision directory and sets up the address
// service's client as e configures them.
func openNormalizers(e config.Extraction) (normalizers, error) {
	dir, err := subdivision.Load(e.SubdivisionDirectory, e.SubdivisionDirectoryOnly)
	if err != nil {
		return normalizers{}, err
	}
	return normalizers{dir: dir, addr: address.New(e.AddressServiceURL, time.Duration(e.AddressServiceTimeoutMS)*time.Millisecond)}, nil
}

// extractDoc extracts one document's fields and normalises them as the
// request asks: an address service that fails leaves the address as read
// (logged), never failing the request.
func extractDoc(ctx context.Context, d Deps, x *extract.Extractor, n normalizers, p params.Recognize, taskID, docType string, img image.Image) (extract.Result, error) {
	res, err := x.Extract(ctx, docType, img)
	if err != nil {
		return res, err
	}
	if p.UseInternalAPI {
		extract.NormalizeAuthority(res.Fields, n.dir)
	}
	if p.NormalizationFIAS && n.addr != nil {
		if err := extract.NormalizeAddress(ctx, res.Fields, n.addr); err != nil {
			d.Log.Warn("address left as read", "task_id", taskID, "err", err)
		}
	}
	return res, nil
}

// recognize classifies the stored input over the stage workers (unless
// mode=recognize_only, where each page is one document of the given type)
// and extracts every document's fields. A page recognize_only decodes is
// admitted to pb first.
func recognize(ctx context.Context, d Deps, x *extract.Extractor, n normalizers, pb *membudget.Budget, req stages.MethodRequest, tempDir string) (json.RawMessage, error) {
	var p params.Recognize
	if raw, err := json.Marshal(req.Params); err == nil {
		_ = json.Unmarshal(raw, &p)
	}
	resp := RecognizeResponse{TaskID: req.TaskID, Items: []RecognizeItem{}, TaskTags: p.TaskTags, Code: 200, Message: "OK", Detail: []any{}}
	var err error
	if p.Mode == "recognize_only" {
		err = recognizeOnly(ctx, d, x, n, pb, req, p, tempDir, &resp)
	} else {
		err = recognizeClassified(ctx, d, x, n, req, p, &resp)
	}
	if err != nil {
		return nil, err
	}
	resp.DocsCount = len(resp.Items)
	return json.Marshal(resp)
}

// recognizeClassified runs the classify flow, then extracts the fields of
// each document whose type is asked for (all when doc_type is empty).
func recognizeClassified(ctx context.Context, d Deps, x *extract.Extractor, n normalizers, req stages.MethodRequest, p params.Recognize, resp *RecognizeResponse) error {
	cp, err := params.ParseClassify(url.Values{})
	if err != nil {
		return fmt.Errorf("recognize: classify defaults: %w", err)
	}
	cp.DPI, cp.Quality, cp.PDFRawImages, cp.AutoPDFRawImages = p.DPI, p.Quality, p.PDFRawImages, p.AutoPDFRawImages
	cp.ReturnCrops = p.ReturnCrops
	// doc_type narrows the classification as it does classify's (the
	// listed types and the special classes are the candidates), so the
	// same request picks the same documents on both methods; the special
	// classes are then left out, having no fields.
	cp.DocTypes = p.DocTypes
	run := pipeline.New(d.NC, d.Store, pipeline.Limits{MaxPages: req.MaxPages, MaxPixels: req.MaxPixels, MaxFilePixels: req.MaxFilePixels}, d.Stages, nil)
	cls, err := run.Classify(ctx, pipeline.Input{TaskID: req.TaskID, InputKey: req.InputKey, Size: req.Size}, cp, pageCount(d, req.TaskID))
	if err != nil {
		return err
	}
	resp.PagesCount, resp.PageCount = cls.PagesCount, cls.PageCount
	// Documents are read side by side, as many as the extractor has
	// Tesseracts; the answer keeps the classification's order.
	items := make([]*RecognizeItem, len(cls.Items))
	err = eachItem(ctx, d, req.TaskID, cls.Items, cls.PagesCount, x.Size(), func(ctx context.Context, i int) error {
		it := cls.Items[i]
		if len(p.DocTypes) > 0 && !slices.Contains(p.DocTypes, it.Document.Type) {
			return nil
		}
		res := extract.Result{DocType: it.Document.Type, Fields: extract.Fields{}}
		if extract.Supported(it.Document.Type) {
			img, err := run.UprightCrop(ctx, it)
			if err != nil {
				return err
			}
			if res, err = extractDoc(ctx, d, x, n, p, req.TaskID, it.Document.Type, img); err != nil {
				return err
			}
		}
		items[i] = &RecognizeItem{DocType: res.DocType, Fields: res.Fields, DocCoords: it.Document.Coords,
			Confidence: it.Document.Confidence, Page: it.Document.Page, Rotation: it.Document.Rotation, Crop: it.Crop}
		return nil
	})
	if err != nil {
		return err
	}
	for _, it := range items {
		if it != nil {
			resp.Items = append(resp.Items, *it)
		}
	}
	return nil
}

// recognizeOnly treats every page as one upright document of the one
// requested type (the image comes from an earlier classification; a
// request naming two types is refused, params.Recognize.OnlyType). Pages
// are read side by side, as many as the extractor has Tesseracts and the
// page budget pb admits (one decoded page each in memory); the answer keeps
// the pages' order. With return_crops each item's crop is its page, the
// image its fields' coords lie on.
func recognizeOnly(ctx context.Context, d Deps, x *extract.Extractor, n normalizers, pb *membudget.Budget, req stages.MethodRequest, p params.Recognize,
	tempDir string, resp *RecognizeResponse) error {
	// The gateway refuses such a request; a task queued by an older
	// gateway is refused here the same way.
	t, err := p.OnlyType()
	if err != nil {
		return err
	}
	data, err := d.Store.Get(ctx, req.InputKey)
	if err != nil {
		return apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	doc, err := decode.Open(ctx, data, decode.Options{DPI: p.DPI, Quality: p.Quality, PDFRawImages: p.PDFRawImages,
		AutoPDFRawImages: p.AutoPDFRawImages, MaxPages: req.MaxPages, MaxPixels: req.MaxPixels,
		MaxFilePixels: req.MaxFilePixels, TempDir: tempDir})
	if err != nil {
		return cropsvc.DecodeError(err)
	}
	defer doc.Close()
	pages := doc.Pages()
	resp.PagesCount, resp.PageCount = pages, pages
	items := make([]RecognizeItem, pages)
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(x.Size(), 1))
	for i := 0; i < pages; i++ {
		g.Go(func() error {
			leave, err := admitPage(gctx, d, pb, "ocr", req.TaskID, doc, i, ocrPageBytes)
			if err != nil {
				return err
			}
			defer leave()
			img, err := doc.Page(gctx, i)
			if err != nil {
				return cropsvc.DecodeError(err)
			}
			res, err := extractDoc(gctx, d, x, n, p, req.TaskID, t, img)
			if err != nil {
				return err
			}
			b := img.Bounds()
			items[i] = RecognizeItem{DocType: res.DocType, Fields: res.Fields, Confidence: 1, Page: i + 1,
				DocCoords: [][2]int{{b.Min.X, b.Min.Y}, {b.Max.X, b.Min.Y}, {b.Min.X, b.Max.Y}, {b.Max.X, b.Max.Y}}}
			if p.ReturnCrops {
				if items[i].Crop, err = cropURI(img); err != nil {
					return fmt.Errorf("recognize: page %d: %w", i+1, err)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			done++
			reportProgress(d, req.TaskID, done, pages)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	resp.Items = append(resp.Items, items...)
	return nil
}

// cropQuality is the JPEG quality of a returned crop where the request
// names none: the orient stage's upright crops, recognize_only's pages.
const cropQuality = 90

// cropURI is img as the data URI a returned crop is:
// data:image/jpeg;base64,...
func cropURI(img image.Image) (string, error) {
	b, err := cvimg.JPEG(img, cropQuality)
	if err != nil {
		return "", fmt.Errorf("encode crop: %w", err)
	}
	return "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(b), nil
}
