package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/bus/bustest"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// TestMethodAnswerOfEveryRelease checks the answers a method stage's
// worker gives, as each release's worker gives them, during a rolling
// upgrade: this release's (the body in the reply, or its key in the store
// when too large for a bus message), and that of a worker of a release
// before 2026-12-03, which answered the bare body. Read as this release's
// reply, the bare body had neither field: the gateway answered 200 with
// the body null, and an async task was stored done with null as its
// result. A reply that holds no body is refused, not answered as null.
func TestMethodAnswerOfEveryRelease(t *testing.T) {
	const body = `{"task_id":"t1","pages":[{"page":1,"text":"ПАСПОРТ"}],"code":200,"message":"OK"}`
	const key = "tasks/t1/method-answer.json"
	for _, tc := range []struct {
		name string
		// answer is the worker's result as it puts it on the bus.
		answer  any
		stored  bool // the body is in the store under key
		wantErr apierr.Code
	}{
		{name: "this release, body in the reply", answer: stages.MethodReply{Body: json.RawMessage(body)}},
		{name: "this release, body in the store", answer: stages.MethodReply{BodyKey: key}, stored: true},
		{name: "earlier release, bare body", answer: json.RawMessage(body)},
		{name: "no body", answer: stages.MethodReply{}, wantErr: apierr.Internal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, nc, log := bustest.Start(t, "test")
			st, err := store.NewFolder(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if tc.stored {
				if err := st.Put(t.Context(), key, []byte(body)); err != nil {
					t.Fatal(err)
				}
			}
			w, err := bus.Serve(nc, stages.OCR, bus.ServeOptions{Concurrency: 1, Timeout: time.Minute, Log: log},
				func(context.Context, stages.MethodRequest) (any, error) { return tc.answer, nil })
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = w.Stop() })
			r := New(nc, st, Limits{}, nil, nil)
			got, err := r.Method(t.Context(), "fulltext", Input{TaskID: "t1", InputKey: "tasks/t1/input"}, nil, nil)
			if tc.wantErr != "" {
				if err == nil || apierr.As(err).Code != tc.wantErr {
					t.Fatalf("answered %s, %v; want %s", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || string(got) != body {
				t.Fatalf("answered %s, %v; want the body", got, err)
			}
			if tc.stored {
				if _, err := st.Get(t.Context(), key); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("stored answer left behind: %v", err)
				}
			}
		})
	}
}
