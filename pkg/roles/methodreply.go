package roles

import (
	"context"
	"encoding/json"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/stages"
	"docsuite/pkg/tasks"
)

// replyMargin is the room left in a bus message for the reply's envelope
// around a method's body.
const replyMargin = 4 << 10

// methodHandler is a method stage's bus handler around run, the method's
// response body: its answer goes out as methodReply puts it.
func methodHandler(d Deps, run func(context.Context, stages.MethodRequest) (json.RawMessage, error)) bus.Handler[stages.MethodRequest, stages.MethodReply] {
	return func(ctx context.Context, req stages.MethodRequest) (stages.MethodReply, error) {
		body, err := run(ctx, req)
		if err != nil {
			return stages.MethodReply{}, err
		}
		return methodReply(ctx, d, req, body)
	}
}

// methodReply wraps the body of a method's answer for the bus: as it is
// when it fits in one message of the connection's payload limit (8 MB on
// the embedded server), otherwise put in the object store among the
// task's objects (removed with them when the task completes), its key in
// the reply. A body over the limit sent as it is would be refused by NATS
// and lost, the caller waiting out PIPELINE_TIMEOUT: the crops of a large
// photo, the text of a long file.
func methodReply(ctx context.Context, d Deps, req stages.MethodRequest, body json.RawMessage) (stages.MethodReply, error) {
	if d.NC == nil || int64(len(body))+replyMargin <= d.NC.MaxPayload() {
		return stages.MethodReply{Body: body}, nil
	}
	key := tasks.InputPrefix(req.TaskID) + "method-answer.json"
	if err := d.Store.Put(ctx, key, body); err != nil {
		return stages.MethodReply{}, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	return stages.MethodReply{BodyKey: key}, nil
}
