// Package pipeline runs the classify flow of one file over the stage
// workers: every page is cropped, every document classified and then
// oriented, quality flags applied, a page whose every cut was no document
// answered whole (secondLook), pieces of a document cut as documents of
// their own dropped (dropTextless, dropInner), and the items ordered. Pages and
// documents run concurrently within bounds, a page's documents as soon as
// the page is cut (runPages). It runs inside the gateway,
// for synchronous requests and for async tasks alike.
package pipeline

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/bus"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/geom"
	"docsuite/pkg/params"
	"docsuite/pkg/quality"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// Limits bounds the work of one file.
type Limits struct {
	MaxPages      int
	MaxPixels     int64
	MaxFilePixels int64
	PageParallel  int
	DocParallel   int
}

// Runner runs pipelines over NATS and the object store.
type Runner struct {
	nc      *nats.Conn
	store   store.Store
	limits  Limits
	metrics *bus.Metrics
	fake    *fakecheck.Checker
}

// New builds a Runner; metrics may be nil. fc answers check_fake=true; a
// Runner built without one (nil) fails a request that asks for it.
func New(nc *nats.Conn, st store.Store, l Limits, m *bus.Metrics, fc *fakecheck.Checker) *Runner {
	if l.PageParallel <= 0 {
		l.PageParallel = 4
	}
	if l.DocParallel <= 0 {
		l.DocParallel = 8
	}
	return &Runner{nc: nc, store: st, limits: l, metrics: m, fake: fc}
}

// Input is a stored file to process.
type Input struct {
	TaskID   string
	InputKey string
	Size     int64
}

// Progress reports pages done out of the file's pages.
type Progress func(done, total int)

// Classify runs classification of a stored input.
func (r *Runner) Classify(ctx context.Context, in Input, p params.Classify, progress Progress) (*ClassifyResponse, error) {
	resp := NewClassifyResponse(in.TaskID, p.TaskTags)
	if p.CheckFake {
		if r.fake == nil {
			return nil, errors.New("pipeline: check_fake asked of a runner built without a metadata checker")
		}
		data, err := r.store.Get(ctx, in.InputKey)
		if err != nil {
			return nil, storeErr(err, "input for check_fake")
		}
		resp.SetFake(r.fake.Check(data))
	}
	var mu sync.Mutex
	pages, err := runPages(ctx, pageWork{
		crop: func(ctx context.Context, page int) (stages.CropReply, error) { return r.CropPage(ctx, in, p, page) },
		doc: func(ctx context.Context, page, idx int, doc stages.Found) error {
			item, err := r.document(ctx, in, p, page, idx, doc)
			if err != nil {
				return err
			}
			mu.Lock()
			resp.Items = append(resp.Items, item)
			mu.Unlock()
			return nil
		},
	}, r.limits.PageParallel, r.limits.DocParallel, progress)
	if err != nil {
		return nil, err
	}
	resp.PagesCount, resp.PageCount = len(pages), len(pages)
	if resp.Items, err = r.secondLook(ctx, in, p, pages, resp.Items); err != nil {
		return nil, err
	}
	resp.Items = dropInner(dropTextless(resp.Items))
	clampCoords(resp.Items, pages)
	sortItems(resp.Items)
	resp.DocsCount = len(resp.Items)
	return resp, nil
}

// CropPage finds and cuts out the documents of one page (0-based) of a
// stored input on the crop stage (classification, and methods that read
// the documents themselves); the crops are stored while the task runs
// (Found.CropKey).
func (r *Runner) CropPage(ctx context.Context, in Input, p params.Classify, page int) (stages.CropReply, error) {
	return call[stages.CropRequest, stages.CropReply](ctx, r, stages.Crop, r.cropRequest(in, p, page))
}

// Orient asks the orient stage how a stored crop turns upright.
func (r *Runner) Orient(ctx context.Context, cropKey string) (stages.OrientReply, error) {
	return call[stages.OrientRequest, stages.OrientReply](ctx, r, stages.Orient, stages.OrientRequest{CropKey: cropKey})
}

// cropRequest is the crop stage's request for one page of the input.
func (r *Runner) cropRequest(in Input, p params.Classify, page int) stages.CropRequest {
	return stages.CropRequest{TaskID: in.TaskID, InputKey: in.InputKey, Page: page, Simple: p.SimpleCropper, WholePage: p.NoCrop(),
		Decode: stages.Decode{DPI: p.DPI, Quality: p.Quality, PDFRawImages: p.PDFRawImages, AutoPDFRawImages: p.AutoPDFRawImages,
			MaxPages: r.limits.MaxPages, MaxPixels: r.limits.MaxPixels, MaxFilePixels: r.limits.MaxFilePixels}}
}

// document classifies and orients one crop and builds its item.
func (r *Runner) document(ctx context.Context, in Input, p params.Classify, page, idx int, doc stages.Found) (Item, error) {
	cls, err := call[stages.ClassifyRequest, stages.ClassifyReply](ctx, r, stages.Classify,
		stages.ClassifyRequest{CropKey: doc.CropKey, Pixels: doc.Width * doc.Height, DocTypes: p.DocTypes})
	if err != nil {
		return Item{}, err
	}
	oreq := stages.OrientRequest{CropKey: doc.CropKey, Pixels: doc.Width * doc.Height, Fixed: doctypes.IsSpecial(cls.Type),
		Known: cls.Rotation, KnownConfidence: cls.RotationConfidence}
	if p.ReturnCrops {
		oreq.JPEGKey = fmt.Sprintf("tasks/%s/p%d_d%d.jpg", in.TaskID, page, idx)
		oreq.JPEGQuality = 90
	}
	rot, err := r.orientation(ctx, oreq)
	if err != nil {
		return Item{}, err
	}
	q := doc.Quality
	flags := quality.Flags(quality.Scores{ExposureHigh: q.ExposureHigh, ExposureLow: q.ExposureLow, Sharpness: q.Sharpness, ShortSide: q.ShortSide}, in.Size, quality.Thresholds{
		MinShape: p.MinShape, MinFilesize: int64(p.MinFilesize),
		MaxExposure: p.MaxExposureScore, MinExposure: p.MinExposureScore, MaxBlur: p.MaxBlurScore,
	})
	item := Item{
		Document: Document{Type: cls.Type, Page: page + 1, Rotation: int(rot),
			Coords: rot.UprightOrder(doc.Quad).Ints(), Confidence: round4(cls.Confidence)},
		ImageExposure:      flags.Exposure,
		ImageBlured:        flags.Blurred,
		LowImageResolution: flags.LowResolution,
		LowImageWeight:     flags.LowWeight,
		CropKey:            doc.CropKey,
		TextLines:          cls.TextLines,
	}
	if p.ReturnCrops {
		jpg, err := r.store.Get(ctx, oreq.JPEGKey)
		if err != nil {
			return Item{}, storeErr(err, "crop")
		}
		item.Crop = "data:image/jpeg;base64," + base64.StdEncoding.EncodeToString(jpg)
	}
	return item, nil
}

// orientation answers the rotation that turns a crop upright. The orient
// stage is asked only when it has work to do: the classify stage did not
// find the orientation, or the upright crop is wanted as JPEG. Otherwise
// the answer is known here, and the crop (which may be a whole 100-MP
// page) is not read and decoded again for nothing. Special classes are
// never turned.
func (r *Runner) orientation(ctx context.Context, oreq stages.OrientRequest) (geom.Rotation, error) {
	if oreq.JPEGKey == "" {
		switch {
		case oreq.Fixed:
			return 0, nil
		case oreq.Known != nil:
			return *oreq.Known, nil
		}
	}
	ori, err := call[stages.OrientRequest, stages.OrientReply](ctx, r, stages.Orient, oreq)
	if err != nil {
		return 0, err
	}
	if oreq.Fixed {
		return 0, nil
	}
	return ori.Rotation, nil
}

// clampCoords holds every item's corners inside its page: a document the
// frame cuts has corners the cropper placed beyond it (its crop is cut
// from there), and coords are page pixels.
func clampCoords(items []Item, pages []stages.CropReply) {
	for i := range items {
		pi := items[i].Document.Page - 1
		if pi < 0 || pi >= len(pages) || pages[pi].PageWidth <= 0 || pages[pi].PageHeight <= 0 {
			continue
		}
		geom.ClampPoints(items[i].Document.Coords, pages[pi].PageWidth, pages[pi].PageHeight)
	}
}

func round4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

// sortItems orders items by page, then top-to-bottom, left-to-right: two
// documents whose vertical extents mostly overlap are in one row and go
// left to right.
func sortItems(items []Item) {
	box := func(it Item) (x0, y0, y1 float64) {
		x0, y0, y1 = 1e18, 1e18, -1e18
		for _, c := range it.Document.Coords {
			x0, y0, y1 = min(x0, float64(c[0])), min(y0, float64(c[1])), max(y1, float64(c[1]))
		}
		return
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if a.Document.Page != b.Document.Page {
			return a.Document.Page < b.Document.Page
		}
		ax, ay0, ay1 := box(a)
		bx, by0, by1 := box(b)
		overlap := min(ay1, by1) - max(ay0, by0)
		if overlap > 0.5*min(ay1-ay0, by1-by0) {
			return ax < bx
		}
		return ay0 < by0
	})
}

// call sends one stage request and records its round trip.
func call[Req, Resp any](ctx context.Context, r *Runner, stage string, req Req) (Resp, error) {
	start := time.Now()
	out, err := bus.RequestCounted[Req, Resp](ctx, r.nc, stage, req, r.metrics)
	r.metrics.ObserveRequest(stage, time.Since(start))
	return out, err
}
