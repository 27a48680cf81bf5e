package roles

import (
	"context"
	"fmt"
	"image"
	"log/slog"
	"strings"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/orient"
	"docsuite/pkg/rawimg"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// model loads a model in the background so the role subscribes at once:
// requests arriving while it loads wait for it instead of finding no
// worker, and the health probe says "loading" until it is ready.
type model[T any] struct {
	done chan struct{}
	v    T
	err  error
}

func loadModel[T any](log interface{ Error(string, ...any) }, what string, open func() (T, error)) *model[T] {
	m := &model[T]{done: make(chan struct{})}
	go func() {
		defer close(m.done)
		m.v, m.err = open()
		if m.err != nil {
			log.Error(what+" model not loaded: requests answer 503 model_not_loaded", "err", m.err)
		}
	}()
	return m
}

// loadOptional is loadModel for a model the role can do without: a failed
// load is logged as a warning with the given message.
func loadOptional[T any](log interface{ Warn(string, ...any) }, warning string, open func() (T, error)) *model[T] {
	m := &model[T]{done: make(chan struct{})}
	go func() {
		defer close(m.done)
		m.v, m.err = open()
		if m.err != nil {
			log.Warn(warning, "err", m.err)
		}
	}()
	return m
}

// get waits for the load; a failed load is the catalogue's model_not_loaded.
func (m *model[T]) get(ctx context.Context) (T, error) {
	var zero T
	select {
	case <-m.done:
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	if m.err != nil {
		return zero, apierr.Wrap(apierr.ModelNotLoaded, m.err, "Model not loaded: "+m.err.Error())
	}
	return m.v, nil
}

func (m *model[T]) probe() bus.Readiness {
	select {
	case <-m.done:
		if m.err != nil {
			return bus.Readiness{Ready: false, Reason: "model not loaded: " + m.err.Error()}
		}
		return bus.Readiness{Ready: true}
	default:
		return bus.Readiness{Ready: false, Reason: "loading the model"}
	}
}

// closeAfter releases a loaded model once the load has finished.
func closeAfter[T interface{ Close() error }](m *model[T]) {
	<-m.done
	if m.err == nil {
		_ = m.v.Close()
	}
}

// readCrop loads a crop the cropper stored.
func readCrop(ctx context.Context, st store.Store, key string) (image.Image, error) {
	data, err := st.Get(ctx, key)
	if err != nil {
		return nil, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	img, err := rawimg.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("read crop %s: %w", key, err)
	}
	return img, nil
}

// Classifier serves the classify stage until ctx ends. Without a usable
// model (or ONNX Runtime) it still serves, answering model_not_loaded, and
// its health probe says why. The machine-readable zone, read when the
// PP-OCR models are installed, is evidence beside the picture; without
// them the picture decides alone (and the log says so once).
func Classifier(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models) error {
	// One table of the printed words (with its dictionary) serves the
	// classifier and the zone reader.
	words, wordsErr := classify.LoadTypeWords()
	mdl := loadModel(d.Log, "classifier", func() (*classify.Classifier, error) {
		if wordsErr != nil {
			return nil, wordsErr
		}
		return classify.Open(classify.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: d.Log, Words: words})
	})
	defer closeAfter(mdl)
	zr := loadOptional(d.Log, "MRZ evidence off: the zone reader did not load", func() (*zoneReader, error) {
		if !m.TextEvidence {
			return nil, errTextEvidenceOff
		}
		if wordsErr != nil {
			return nil, wordsErr
		}
		z, err := openZoneReader(m, d.Log, true, words, workerSize(w))
		if err == nil {
			z.spareSettled = true
		}
		return z, err
	})
	defer closeAfter(zr)
	large := newLargeGate()
	h := func(ctx context.Context, req stages.ClassifyRequest) (stages.ClassifyReply, error) {
		cl, err := mdl.get(ctx)
		if err != nil {
			return stages.ClassifyReply{}, err
		}
		img, leave, err := readGated(ctx, large, d.Store, req.CropKey, req.Pixels)
		if err != nil {
			return stages.ClassifyReply{}, err
		}
		defer leave()
		// One run of docnet gives the type and the orientation heads.
		out, err := cl.Outputs(ctx, img)
		if err != nil {
			return stages.ClassifyReply{}, err
		}
		var ev classify.Evidence
		var rot *geom.Rotation
		var rotConf float64
		var lines *int // set when the text evidence was read
		// A crop the picture is sure carries no zone is not searched for
		// one (classify.ZoneGate).
		lookForZone := cl.ZoneMayCount(out)
		if z, err := zr.get(ctx); err == nil {
			var r geom.Rotation
			hints := readHints{Zone: lookForZone, PictureOrients: cl.Textless(out)}
			if ev, r, rotConf, err = z.ReadLogits(ctx, img, out[orient.OrientHead], hints); err != nil {
				return stages.ClassifyReply{}, err
			}
			rot, lines = &r, &ev.TextLines
			// A page that prints nothing is no catalogue document
			// (classify.Flat); known only where its lines were looked for.
			ev.Blank = ev.TextLines == 0 && classify.Flat(img)
		}
		reply, err := cl.ClassifyOutputs(out, req.DocTypes, ev)
		reply.Rotation, reply.RotationConfidence, reply.TextLines = rot, rotConf, lines
		if err == nil && d.Log.Enabled(ctx, slog.LevelDebug) {
			zone := "none"
			if !lookForZone {
				zone = "not looked for"
			}
			if ev.Zone != nil {
				zone = fmt.Sprintf("%s valid=%t conf=%.2f", classify.ZoneKey(*ev.Zone), ev.Zone.Valid, ev.Zone.Confidence)
			}
			d.Log.Debug("classify: answer", answerAttrs(req.CropKey, reply, ev, zone, m.LogWords)...)
		}
		return reply, err
	}
	return serveStage(ctx, d, c, w, stages.Classify, h, mdl.probe)
}

// answerAttrs are the attributes of the classifier's DEBUG line for one
// crop: its answer and the evidence's summary, and the printed words read
// only when logWords (LOG_WORDS) asks for them: they are the document's
// own text.
func answerAttrs(crop string, reply stages.ClassifyReply, ev classify.Evidence, zone string, logWords bool) []any {
	attrs := []any{"crop", crop, "type", reply.Type, "confidence", reply.Confidence, "lines", ev.TextLines, "zone", zone}
	if ev.Blank {
		attrs = append(attrs, "blank", true)
	}
	if logWords && ev.WordsRead {
		attrs = append(attrs, "words", strings.Join(ev.Words, " "))
	}
	return attrs
}

// Orienter serves the orient stage until ctx ends, writing the upright
// crop as JPEG when asked.
func Orienter(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models) error {
	mdl := loadModel(d.Log, "orienter", func() (*orient.Orienter, error) {
		return orient.Open(orient.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: d.Log,
			NoText: !m.TextEvidence})
	})
	defer closeAfter(mdl)
	large := newLargeGate()
	h := func(ctx context.Context, req stages.OrientRequest) (stages.OrientReply, error) {
		// The crop is read only when its pixels are needed: for the
		// models, or for the upright JPEG.
		reply := stages.OrientReply{Confidence: 1}
		var img image.Image
		switch {
		case req.Fixed:
		case req.Known != nil:
			reply.Rotation, reply.Confidence = *req.Known, req.KnownConfidence
		default:
			or, err := mdl.get(ctx)
			if err != nil {
				return stages.OrientReply{}, err
			}
			var leave func()
			if img, leave, err = readGated(ctx, large, d.Store, req.CropKey, req.Pixels); err != nil {
				return stages.OrientReply{}, err
			}
			defer leave()
			if reply.Rotation, reply.Confidence, err = or.Orient(ctx, img); err != nil {
				return stages.OrientReply{}, err
			}
		}
		if req.JPEGKey == "" {
			return reply, nil
		}
		if img == nil {
			var err error
			if img, err = readCrop(ctx, d.Store, req.CropKey); err != nil {
				return stages.OrientReply{}, err
			}
		}
		q := req.JPEGQuality
		if q <= 0 || q > 100 {
			q = cropQuality
		}
		b, err := cvimg.TurnedJPEG(img, reply.Rotation, q)
		if err != nil {
			return stages.OrientReply{}, fmt.Errorf("orienter: encode crop: %w", err)
		}
		if err := d.Store.Put(ctx, req.JPEGKey, b); err != nil {
			return stages.OrientReply{}, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
		}
		return reply, nil
	}
	return serveStage(ctx, d, c, w, stages.Orient, h, mdl.probe)
}
