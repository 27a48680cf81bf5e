package pipeline

import (
	"context"
	"encoding/json"
	"errors"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/stages"
)

// Method runs recognize, fraud or fulltext on the stage that serves it and
// returns its response body (read from the object store when it was too
// large for a bus message). Without a running worker for that stage the
// answer is a 503 naming it, never an invented result. The pages the
// worker reports done (bus.PublishProgress) reach progress while it runs;
// a method that reports none shows 1 of 1 when it ends.
func (r *Runner) Method(ctx context.Context, method string, in Input, p any, progress Progress) (json.RawMessage, error) {
	req := stages.MethodRequest{Method: method, TaskID: in.TaskID, InputKey: in.InputKey, Size: in.Size, Params: p,
		MaxPages: r.limits.MaxPages, MaxPixels: r.limits.MaxPixels, MaxFilePixels: r.limits.MaxFilePixels}
	reported := false
	stop := func() {}
	if progress != nil && in.TaskID != "" {
		// Progress is advisory: without it (the bus failing) the request
		// below says what is wrong.
		if s, err := bus.FollowProgress(r.nc, in.TaskID, func(done, total int) {
			reported = true
			progress(done, total)
		}); err == nil {
			stop = s
		}
	}
	rep, err := call[stages.MethodRequest, stages.MethodReply](ctx, r, stages.MethodStage(method), req)
	stop() // no report is passed on after this, and reported is settled
	if err != nil {
		return nil, err
	}
	out, err := r.methodBody(ctx, rep)
	if err != nil {
		return nil, err
	}
	if progress != nil && !reported {
		progress(1, 1)
	}
	return out, nil
}

// methodBody is the response body of a method stage's reply: the reply's
// own, or the one the worker stored (too large for a bus message), read
// and deleted. A reply with neither is an internal error: answered as it
// was, it made a 200 whose body was null.
func (r *Runner) methodBody(ctx context.Context, rep stages.MethodReply) (json.RawMessage, error) {
	if rep.BodyKey == "" {
		if len(rep.Body) == 0 {
			return nil, apierr.Wrap(apierr.Internal, errors.New("pipeline: the method's worker answered no body"), "")
		}
		return rep.Body, nil
	}
	body, err := r.store.Get(ctx, rep.BodyKey)
	if err != nil {
		return nil, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	// A failed delete leaves the object among the task's, which go when
	// it completes (or with the janitor): nothing to answer about.
	_ = r.store.Delete(context.WithoutCancel(ctx), rep.BodyKey)
	return json.RawMessage(body), nil
}
