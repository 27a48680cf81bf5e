// Package bus is the NATS transport of the suite: connecting, an embedded
// server for the all-in-one and tests, typed JSON request/reply between
// the gateway and the stage workers, and queue-group workers with bounded
// concurrency. Messages carry object keys and small JSON, never file bodies.
package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
)

// Subject returns the request subject of a stage, e.g. "docsuite.stage.crop".
func Subject(stage string) string { return "docsuite.stage." + stage }

// Auth is the option that gives NATS a role's user and password
// (NATS_USER, NATS_PASSWORD); none when user is empty.
func Auth(user, password string) nats.Option {
	if user == "" {
		return func(*nats.Options) error { return nil }
	}
	return nats.UserInfo(user, password)
}

// Connect dials NATS with reconnects forever, so a restarting server does
// not take the role down. extra adds options, such as Auth.
func Connect(url, name string, log *slog.Logger, extra ...nats.Option) (*nats.Conn, error) {
	nc, err := nats.Connect(url, append([]nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("nats disconnected", "err", err)
			}
		}),
		nats.ReconnectHandler(func(c *nats.Conn) { log.Info("nats reconnected", "url", c.ConnectedUrlRedacted()) }),
	}, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("bus: connect %s: %w", config.RedactURLs(url), err)
	}
	return nc, nil
}

// reply is the envelope of every worker answer: a result or an error.
type reply struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *wireError      `json:"error,omitempty"`
}

type wireError struct {
	Code    apierr.Code     `json:"code"`
	Message string          `json:"message"`
	Detail  []apierr.Detail `json:"detail,omitempty"`
	Cause   string          `json:"cause,omitempty"`
}

// Request sends req to a stage and decodes its answer into a Resp. A
// worker's catalogue error comes back as the same *apierr.Error; no worker
// answering is a dependency_down error, a deadline a pipeline_timeout, a
// cancelled ctx context.Canceled. A worker that stops beating while it
// holds the request (killed, crashed) is taken for lost and the request
// is sent once more, to whichever worker takes it, and so is a request
// no worker beat for within the same silence where the stage's workers
// are known to beat (beaters: the one handed it died or froze before it
// read it); lost twice, it is a
// dependency_down error, seconds after the second loss rather than at
// the pipeline's deadline. When the lost worker was the only one, the
// request waits up to 20 s for a replacement to start.
func Request[Req, Resp any](ctx context.Context, nc *nats.Conn, stage string, req Req) (Resp, error) {
	return request[Req, Resp](ctx, nc, stage, req, defaultLiveness, nil)
}

// RequestCounted is Request counting the workers lost under it in m
// (docsuite_stage_workers_lost_total; m may be nil).
func RequestCounted[Req, Resp any](ctx context.Context, nc *nats.Conn, stage string, req Req, m *Metrics) (Resp, error) {
	return request[Req, Resp](ctx, nc, stage, req, defaultLiveness, m)
}

// request is Request with the workers' liveness timing l, counting lost
// workers in m.
func request[Req, Resp any](ctx context.Context, nc *nats.Conn, stage string, req Req, l liveness, m *Metrics) (Resp, error) {
	var out Resp
	data, err := json.Marshal(req)
	if err != nil {
		return out, fmt.Errorf("bus: encode %s request: %w", stage, err)
	}
	var msg *nats.Msg
	lost := 0
	var restartBy time.Time
	workers := m.beaters()
	for {
		if err := awaitConnected(ctx, nc, l.reconnect); err != nil {
			return out, apierr.Wrap(apierr.DependencyDown, err, "Message bus unavailable")
		}
		// Only the first send has a deadline for its first beat: sent
		// again, a request handed to a worker of an older release, which
		// never beats, is waited for.
		first := lost == 0 && workers.expect(stage, time.Now())
		msg, err = send(ctx, nc, stage, data, l, first, workers)
		if lost > 0 && errors.Is(err, nats.ErrNoResponders) && time.Now().Before(restartBy) {
			// The lost worker was the only one: its replacement (a
			// container restarted by its policy) may still be starting.
			select {
			case <-ctx.Done():
			case <-time.After(l.beat):
				continue
			}
		}
		if !errors.As(err, new(errWorkerLost)) {
			break
		}
		m.workerLost(stage)
		if lost++; lost == 2 || ctx.Err() != nil {
			return out, apierr.Wrap(apierr.DependencyDown, err, fmt.Sprintf("The %s worker stopped twice while handling the request", stage))
		}
		restartBy = time.Now().Add(l.restart)
	}
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return out, apierr.Wrap(apierr.DependencyDown, err, fmt.Sprintf("No %s worker is running", stage))
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		return out, apierr.Wrap(apierr.PipelineTimeout, err, "")
	case errors.Is(err, context.Canceled):
		// The caller gave up (a client gone, a shutdown), not the bus.
		return out, fmt.Errorf("bus: %s request: %w", stage, err)
	case err != nil:
		return out, apierr.Wrap(apierr.DependencyDown, err, "Message bus unavailable")
	}
	return decodeReply[Resp](stage, msg)
}

// awaitConnected returns nil once nc is connected, or an error when it
// is not within grace (or ctx ends first); a grace of 0 does not wait.
func awaitConnected(ctx context.Context, nc *nats.Conn, grace time.Duration) error {
	if nc.IsConnected() {
		return nil
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return fmt.Errorf("bus: not connected to NATS (%s)", nc.Status())
		case <-tick.C:
			if nc.IsConnected() {
				return nil
			}
		}
	}
}

// send publishes one stage request with an id of its own and waits for
// its answer, watching the worker's beats (requestWatched), from the send
// when first is set, and recording in workers whether the one that
// answered beats.
func send(ctx context.Context, nc *nats.Conn, stage string, data []byte, l liveness, first bool, workers *beaters) (*nats.Msg, error) {
	id := newRequestID()
	m := nats.NewMsg(Subject(stage))
	m.Data = data
	m.Header.Set(requestIDHeader, id)
	msg, err := requestWatched(ctx, nc, m, l, first)
	if err == nil && m.Header.Get(aliveHeader) != "" {
		workers.answered(stage, msg.Header.Get(beatsHeader) != "", time.Now())
	}
	if err != nil && (ctx.Err() != nil || errors.As(err, new(errWorkerLost))) && !errors.Is(err, nats.ErrNoResponders) {
		// Nobody waits for the answer any more: the worker holding the
		// request stops it (best effort: lost, the work runs out its
		// own timeout as before).
		_ = nc.Publish(CancelSubject, []byte(id))
	}
	return msg, err
}

// decodeReply turns a worker's answer into a Resp or its error.
func decodeReply[Resp any](stage string, msg *nats.Msg) (Resp, error) {
	var out Resp
	var r reply
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return out, fmt.Errorf("bus: decode %s reply: %w", stage, err)
	}
	if r.Error != nil {
		e := &apierr.Error{Code: r.Error.Code, Message: r.Error.Message, Detail: r.Error.Detail}
		if r.Error.Cause != "" {
			e.Cause = fmt.Errorf("%s worker: %s", stage, r.Error.Cause)
		}
		if e.Status() == 503 {
			e.RetryAfter = 5
		}
		return out, e
	}
	if err := json.Unmarshal(r.Result, &out); err != nil {
		return out, fmt.Errorf("bus: decode %s result: %w", stage, err)
	}
	return out, nil
}

// Handler is a stage's service function.
type Handler[Req, Resp any] func(ctx context.Context, req Req) (Resp, error)

// Worker serves one stage on its subject in the queue group of the same
// name, so replicas share the load.
type Worker struct {
	sub     *nats.Subscription
	cancels *cancels
	// cancelSub hears CancelSubject.
	cancelSub *nats.Subscription
	sem       chan struct{}
	nc        *nats.Conn
	beat      time.Duration // between a held request's beats
	// held counts the requests received and not yet answered; mu guards
	// adding to it against Stop's wait (stopped: no more are taken).
	held    sync.WaitGroup
	mu      sync.Mutex
	stopped bool
	observe func(time.Duration)
	timeout time.Duration // of one request
}

// ServeOptions tunes a worker.
type ServeOptions struct {
	// Concurrency is how many requests run at once (0: CPU cores).
	Concurrency int
	// Timeout bounds one request.
	Timeout time.Duration
	Log     *slog.Logger
	// Observe, when set, receives each request's processing time.
	Observe func(time.Duration)
	// beat, when set, replaces defaultLiveness.beat (tests).
	beat time.Duration
}

// Serve subscribes h to a stage in its queue group. Each request gets a
// context bounded by the timeout and cancelled when its caller publishes
// its id on CancelSubject (a request cancelled while it waits for a slot
// never runs). Stop drains and waits for running requests.
func Serve[Req, Resp any](nc *nats.Conn, stage string, o ServeOptions, h Handler[Req, Resp]) (*Worker, error) {
	concurrency, timeout, log := o.Concurrency, o.Timeout, o.Log
	if concurrency <= 0 {
		// The CPUs the process may use: GOMAXPROCS follows a container's
		// CPU limit, where NumCPU counts the host's.
		concurrency = runtime.GOMAXPROCS(0)
	}
	w := &Worker{sem: make(chan struct{}, concurrency), observe: o.Observe, timeout: timeout,
		cancels: newCancels(timeout), nc: nc, beat: defaultLiveness.beat}
	if o.beat > 0 {
		w.beat = o.beat
	}
	csub, err := w.cancels.listen(nc)
	if err != nil {
		return nil, fmt.Errorf("bus: subscribe %s: %w", CancelSubject, err)
	}
	w.cancelSub = csub
	sub, err := nc.QueueSubscribe(Subject(stage), stage, func(m *nats.Msg) {
		w.mu.Lock()
		if w.stopped {
			w.mu.Unlock()
			return
		}
		w.held.Add(1)
		w.mu.Unlock()
		// Each request received is held by a goroutine of its own, which
		// beats for it from now on, while it waits for a slot too: a
		// request waiting in the queue of a worker that is killed is sent
		// again by its caller as one that was running.
		go func() {
			defer w.held.Done()
			if inbox := m.Header.Get(aliveHeader); inbox != "" {
				defer keepAlive(w.nc, inbox, w.beat)()
			}
			w.sem <- struct{}{}
			defer func() { <-w.sem }()
			w.handle(m, stage, timeout, log, func(ctx context.Context, data []byte) (any, error) {
				var req Req
				if err := json.Unmarshal(data, &req); err != nil {
					return nil, apierr.Wrap(apierr.Internal, err, "malformed stage request")
				}
				return h(ctx, req)
			})
		}()
	})
	if err != nil {
		_ = csub.Unsubscribe()
		return nil, fmt.Errorf("bus: subscribe %s: %w", stage, err)
	}
	w.sub = sub
	return w, nil
}

func (w *Worker) handle(m *nats.Msg, stage string, timeout time.Duration, log *slog.Logger, fn func(context.Context, []byte) (any, error)) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	id := m.Header.Get(requestIDHeader)
	if !w.cancels.start(id, cancel, time.Now()) {
		log.Info("stage request cancelled by its caller before it started", "stage", stage)
		return
	}
	defer w.cancels.finish(id)
	start := time.Now()
	var r reply
	res, err := safeCall(ctx, m.Data, fn)
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		// Nobody waits for this answer.
		log.Info("stage request cancelled by its caller", "stage", stage, "ms", time.Since(start).Milliseconds())
		return
	}
	if err != nil {
		e := apierr.As(err)
		r.Error = &wireError{Code: e.Code, Message: e.Envelope().Message, Detail: e.Detail}
		if e.Cause != nil {
			r.Error.Cause = e.Cause.Error()
		}
		log.Warn("stage request failed", "stage", stage, "code", e.Code, "err", err, "ms", time.Since(start).Milliseconds())
	} else {
		b, merr := json.Marshal(res)
		if merr != nil {
			r.Error = &wireError{Code: apierr.Internal, Message: "encode result", Cause: merr.Error()}
		} else {
			r.Result = b
		}
		log.Debug("stage request", "stage", stage, "ms", time.Since(start).Milliseconds())
	}
	if w.observe != nil {
		w.observe(time.Since(start))
	}
	out, _ := json.Marshal(r)
	answer := &nats.Msg{Data: out}
	if m.Header.Get(aliveHeader) != "" {
		// It beat for the request: its caller may expect the next
		// worker of the stage to beat too.
		answer.Header = nats.Header{beatsHeader: []string{"1"}}
	}
	if err := m.RespondMsg(answer); err != nil {
		log.Warn("stage reply lost", "stage", stage, "err", err)
	}
}

// safeCall turns a panic in a handler into an internal error so one bad
// input never takes the worker down.
func safeCall(ctx context.Context, data []byte, fn func(context.Context, []byte) (any, error)) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = apierr.Panic(p)
		}
	}()
	return fn(ctx, data)
}

// Stop unsubscribes and returns once every request the worker received
// has been answered. NATS hands the requests it had already buffered to
// the subscription's callback until the subscription closes, each then
// held by a goroutine waiting for a free slot, so the held requests are
// waited for only once it has closed: waited for earlier, a request
// handed over later was left unanswered, its caller waiting out its
// timeout. A drain that outlasts the request timeout is given up on, and
// what NATS hands over after it is dropped.
func (w *Worker) Stop() error {
	defer func() { _ = w.cancelSub.Unsubscribe() }()
	closed := w.sub.StatusChanged(nats.SubscriptionClosed)
	if err := w.sub.Drain(); err != nil {
		return fmt.Errorf("bus: drain: %w", err)
	}
	bound := w.timeout
	if bound <= 0 {
		bound = time.Minute
	}
	wait := time.NewTimer(bound)
	defer wait.Stop()
	select {
	case <-closed:
	case <-wait.C:
	}
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
	w.held.Wait()
	return nil
}
