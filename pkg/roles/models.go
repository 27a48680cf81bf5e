package roles

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/orient"
	"docsuite/pkg/rawimg"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// modelState is what a model-running role tells its readiness probe and
// callers when the model could not be loaded.
type modelState struct {
	err error
}

func (s modelState) probe() bus.Readiness {
	if s.err != nil {
		return bus.Readiness{Ready: false, Reason: "model not loaded: " + s.err.Error()}
	}
	return bus.Readiness{Ready: true}
}

func (s modelState) notLoaded() error {
	return apierr.Wrap(apierr.ModelNotLoaded, s.err, "Model not loaded: "+s.err.Error())
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
// its health probe says why.
func Classifier(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models) error {
	cl, err := classify.Open(classify.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: d.Log})
	state := modelState{err: err}
	if err != nil {
		d.Log.Error("classifier model not loaded: classification answers 503", "err", err)
	} else {
		defer cl.Close()
	}
	h := func(ctx context.Context, req stages.ClassifyRequest) (stages.ClassifyReply, error) {
		if cl == nil {
			return stages.ClassifyReply{}, state.notLoaded()
		}
		img, err := readCrop(ctx, d.Store, req.CropKey)
		if err != nil {
			return stages.ClassifyReply{}, err
		}
		return cl.Classify(ctx, img, req.DocTypes)
	}
	return serveStage(ctx, d, c, w, stages.Classify, h, state.probe)
}

// Orienter serves the orient stage until ctx ends, writing the upright
// crop as JPEG when asked.
func Orienter(ctx context.Context, d Deps, c config.Common, w config.Worker, m config.Models) error {
	or, err := orient.Open(orient.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: d.Log})
	state := modelState{err: err}
	if err != nil {
		d.Log.Error("orienter model not loaded: orientation answers 503", "err", err)
	} else {
		defer or.Close()
	}
	h := func(ctx context.Context, req stages.OrientRequest) (stages.OrientReply, error) {
		img, err := readCrop(ctx, d.Store, req.CropKey)
		if err != nil {
			return stages.OrientReply{}, err
		}
		reply := stages.OrientReply{Confidence: 1}
		if !req.Fixed {
			if or == nil {
				return stages.OrientReply{}, state.notLoaded()
			}
			if reply.Rotation, reply.Confidence, err = or.Orient(ctx, img); err != nil {
				return stages.OrientReply{}, err
			}
		}
		if req.JPEGKey == "" {
			return reply, nil
		}
		up, err := orient.Upright(img, reply.Rotation)
		if err != nil {
			return stages.OrientReply{}, err
		}
		var buf bytes.Buffer
		q := req.JPEGQuality
		if q <= 0 || q > 100 {
			q = 90
		}
		if err := jpeg.Encode(&buf, up, &jpeg.Options{Quality: q}); err != nil {
			return stages.OrientReply{}, fmt.Errorf("orienter: encode crop: %w", err)
		}
		if err := d.Store.Put(ctx, req.JPEGKey, buf.Bytes()); err != nil {
			return stages.OrientReply{}, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
		}
		return reply, nil
	}
	return serveStage(ctx, d, c, w, stages.Orient, h, state.probe)
}
