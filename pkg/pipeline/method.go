package pipeline

import (
	"context"
	"encoding/json"

	"docsuite/pkg/stages"
)

// Method runs recognize, fraud or fulltext on the stage that serves it and
// returns its response body. Without a running worker for that stage the
// answer is a 503 naming it, never an invented result.
func (r *Runner) Method(ctx context.Context, method string, in Input, p any, progress Progress) (json.RawMessage, error) {
	req := stages.MethodRequest{Method: method, TaskID: in.TaskID, InputKey: in.InputKey, Size: in.Size, Params: p,
		MaxPages: r.limits.MaxPages, MaxPixels: r.limits.MaxPixels}
	out, err := call[stages.MethodRequest, json.RawMessage](ctx, r, stages.MethodStage(method), req)
	if err != nil {
		return nil, err
	}
	if progress != nil {
		progress(1, 1)
	}
	return out, nil
}
