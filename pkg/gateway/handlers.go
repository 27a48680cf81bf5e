package gateway

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"docsuite/pkg/apierr"
	"docsuite/pkg/licensed"
	"docsuite/pkg/params"
	"docsuite/pkg/pipeline"
	"docsuite/pkg/store"
	"docsuite/pkg/tasks"
)

// Methods that run through the async queue.
const (
	methodClassify  = "classify"
	methodRecognize = "recognize"
	methodFraud     = "fraud"
	methodFulltext  = "fulltext"
)

func newTaskID() string {
	u := uuid.New()
	return hex.EncodeToString(u[:])
}

// accepted is what a request leaves after validation: a stored input.
type accepted struct {
	in    pipeline.Input
	owner string
}

// keep stores an upload under a new task's input key.
func (s *Server) keep(c *gin.Context, up *upload) (*accepted, error) {
	id := newTaskID()
	c.Set(taskIDKey, id) // for the log line of a failure (fail)
	in := pipeline.Input{TaskID: id, InputKey: tasks.InputPrefix(id) + "input", Size: up.size}
	// Read at offsets and seekable, so that the store client can upload
	// parts side by side and retry.
	body := io.NewSectionReader(up.data, 0, up.size)
	// Bounded like every other write to the store, so that the janitor
	// can tell a write begun over PIPELINE_TIMEOUT ago for one a killed
	// process left (store.RemovePartial).
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.Timeout())
	defer cancel()
	if err := s.store.PutReader(ctx, in.InputKey, body, up.size); err != nil {
		return nil, apierr.Wrap(apierr.DependencyDown, err, "Object store unavailable")
	}
	return &accepted{in: in, owner: c.GetString(ownerKey)}, nil
}

// runSync runs fn for a stored input within the pipeline timeout (its
// in-flight slot taken by serve), and always removes the input and
// intermediates. An answer is recorded as such (tasks.Answered), so that
// /result tells its task_id apart from an unknown one.
func (s *Server) runSync(c *gin.Context, a *accepted, method string, fn func(ctx context.Context) (any, error)) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.cfg.Timeout())
	defer cancel()
	defer func() {
		prefix := tasks.InputPrefix(a.in.TaskID)
		if err := s.store.DeletePrefix(context.WithoutCancel(c.Request.Context()), prefix); err != nil {
			s.log.Warn("input cleanup failed; the janitor will remove it", "task_id", a.in.TaskID, "err", err)
		}
		// A request cut short (its client gone, its time up) cancels
		// its stage requests (bus.CancelSubject), but a worker that
		// missed the cancellation finishes what it took, within its own
		// PIPELINE_TIMEOUT, and writes crops after the cleanup above.
		// They are removed once that time has passed, not an hour later
		// by the janitor.
		if ctx.Err() != nil {
			store.DeleteLater(s.store, prefix, s.lateCleanup, func(err error) {
				s.log.Warn("late cleanup of a request cut short failed; the janitor will remove it", "task_id", a.in.TaskID, "err", err)
			})
		}
	}()
	res, err := fn(ctx)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = apierr.Timeout(err, s.cfg.Timeout())
		}
		s.fail(c, err)
		return
	}
	if err := s.queue.RecordAnswered(context.WithoutCancel(c.Request.Context()), a.in.TaskID, method, a.owner); err != nil {
		s.log.Warn("sync answer not recorded; /result will not know its task_id", "task_id", a.in.TaskID, "err", err)
	}
	s.count()
	c.JSON(http.StatusOK, res)
}

// count records one request for the license report's usage counter: a
// synchronous request once answered, an async one once queued. A request
// that fails on the installation's side (a stage or the store down, a
// timeout) is not counted, nor are the client's retries of it.
func (s *Server) count() {
	if err := licensed.CountRequest(s.nc); err != nil {
		s.log.Warn("license usage not counted", "err", err)
	}
}

// enqueue hands a stored input to the async queue and answers the
// accept body at once.
func (s *Server) enqueue(c *gin.Context, a *accepted, method string, p any, priority int, tags []string) {
	raw, err := json.Marshal(p)
	if err != nil {
		s.fail(c, fmt.Errorf("gateway: encode params: %w", err))
		return
	}
	job := tasks.Job{ID: a.in.TaskID, Method: method, InputKey: a.in.InputKey, Size: a.in.Size, Params: raw, Priority: priority}
	if err := s.queue.Enqueue(c.Request.Context(), job, a.owner); err != nil {
		_ = s.store.DeletePrefix(context.WithoutCancel(c.Request.Context()), tasks.InputPrefix(a.in.TaskID))
		s.fail(c, err)
		return
	}
	s.count()
	s.metrics.tasksAccepted.WithLabelValues(method).Inc()
	c.JSON(http.StatusOK, pipeline.NewClassifyResponse(a.in.TaskID, tags))
}

func (s *Server) handleClassify(hosted bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		q, err := params.Values(c.Request.URL.RawQuery)
		if err != nil {
			s.fail(c, err)
			return
		}
		p, err := params.ParseClassify(q)
		if err != nil {
			s.fail(c, err)
			return
		}
		s.serve(c, methodClassify, p, p.Async, p.Priority, p.TaskTags, func(ctx context.Context, in pipeline.Input) (any, error) {
			return s.pipe.Classify(ctx, in, p, nil)
		})
	}
}

func (s *Server) handleRecognize(hosted bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		q, err := params.Values(c.Request.URL.RawQuery)
		if err != nil {
			s.fail(c, err)
			return
		}
		p, err := params.ParseRecognize(q)
		if err != nil {
			s.fail(c, err)
			return
		}
		s.serve(c, methodRecognize, p, p.Async, p.Priority, p.TaskTags, func(ctx context.Context, in pipeline.Input) (any, error) {
			return s.pipe.Method(ctx, methodRecognize, in, p, nil)
		})
	}
}

// handleStageMethod serves fraud and fulltext, which take classify's
// parameters and run on their own stage workers.
func (s *Server) handleStageMethod(method string, hosted bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		q, err := params.Values(c.Request.URL.RawQuery)
		if err != nil {
			s.fail(c, err)
			return
		}
		p, err := params.ParseClassify(q)
		if err != nil {
			s.fail(c, err)
			return
		}
		s.serve(c, method, p, p.Async, p.Priority, p.TaskTags, func(ctx context.Context, in pipeline.Input) (any, error) {
			return s.pipe.Method(ctx, method, in, p, nil)
		})
	}
}

// serve reads the request's file, then queues it (async) or runs it now.
// A synchronous request takes its in-flight slot once its file is read
// and before it is stored: one refused as overloaded leaves nothing in
// the store and is not counted against the license's requests.
func (s *Server) serve(c *gin.Context, method string, p any, async bool, priority int, tags []string,
	run func(ctx context.Context, in pipeline.Input) (any, error)) {
	up, err := s.readUpload(c, s.queryOnly(method))
	if err != nil {
		s.fail(c, err)
		return
	}
	// Released once stored (below) or on any early return; release is
	// idempotent.
	defer s.release(up)
	if !async {
		free, err := s.syncSlot()
		if err != nil {
			s.fail(c, err)
			return
		}
		defer free()
	}
	a, err := s.keep(c, up)
	s.release(up)
	if err != nil {
		s.fail(c, err)
		return
	}
	if async {
		s.enqueue(c, a, method, p, priority, tags)
		return
	}
	s.runSync(c, a, method, func(ctx context.Context) (any, error) { return run(ctx, a.in) })
}

// syncSlot takes one of the MAX_INFLIGHT slots of synchronous requests,
// without waiting: none free is 503 overloaded. free gives it back.
func (s *Server) syncSlot() (free func(), err error) {
	select {
	case s.inflight <- struct{}{}:
		return func() { <-s.inflight }, nil
	default:
		return nil, apierr.New(apierr.Overloaded, "")
	}
}

func (s *Server) execTask(ctx context.Context, job tasks.Job, progress tasks.Progress) ([]byte, error) {
	in := pipeline.Input{TaskID: job.ID, InputKey: job.InputKey, Size: job.Size}
	var res any
	var err error
	switch job.Method {
	case methodClassify:
		var p params.Classify
		if err := json.Unmarshal(job.Params, &p); err != nil {
			return nil, fmt.Errorf("gateway: task params: %w", err)
		}
		res, err = s.pipe.Classify(ctx, in, p, pipeline.Progress(progress))
	case methodRecognize:
		var p params.Recognize
		if err := json.Unmarshal(job.Params, &p); err != nil {
			return nil, fmt.Errorf("gateway: task params: %w", err)
		}
		res, err = s.pipe.Method(ctx, job.Method, in, p, pipeline.Progress(progress))
	case methodFraud, methodFulltext:
		var p params.Classify
		if err := json.Unmarshal(job.Params, &p); err != nil {
			return nil, fmt.Errorf("gateway: task params: %w", err)
		}
		res, err = s.pipe.Method(ctx, job.Method, in, p, pipeline.Progress(progress))
	default:
		return nil, fmt.Errorf("gateway: unknown task method %q", job.Method)
	}
	if err != nil {
		s.metrics.tasksErrors.WithLabelValues(job.Method, string(apierr.As(err).Code)).Inc()
		return nil, err
	}
	s.metrics.tasksDone.WithLabelValues(job.Method).Inc()
	return json.Marshal(res)
}

// pendingBody is the 202 answer of /result while a task runs.
type pendingBody struct {
	apierr.Body
	TaskID   string       `json:"task_id"`
	Status   tasks.Status `json:"status"`
	Progress struct {
		PagesDone  int `json:"pages_done"`
		PagesTotal int `json:"pages_total"`
	} `json:"progress"`
}

func (s *Server) handleResult(c *gin.Context) {
	// Ids are answered in lower case; a client that upper-cases them
	// means the same task.
	id := strings.ToLower(c.Param("task_id"))
	if len(id) != 32 || !isHex(id) {
		s.fail(c, apierr.New(apierr.TaskNotFound, ""))
		return
	}
	st, ok, err := s.queue.Get(c.Request.Context(), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	if !ok {
		s.fail(c, apierr.New(apierr.TaskNotFound, ""))
		return
	}
	// An on-premises path's task (no owner) is read with or without a
	// token: those paths take none, so a client that sends one anyway
	// (a library attaching it to every call) gets its result.
	if token := requestToken(c); st.Owner != "" && st.Owner != Owner(token) {
		// A hosted path's task read without any key lacks its token, as
		// the path itself would answer; with another key it is forbidden.
		code := apierr.TaskForbidden
		if token == "" {
			code = apierr.TokenMissing
		}
		s.fail(c, apierr.New(code, ""))
		return
	}
	switch st.Status {
	case tasks.Queued, tasks.Running:
		b := pendingBody{Body: apierr.New(apierr.TaskNotDone, "").Envelope(), TaskID: id, Status: st.Status}
		b.Progress.PagesDone, b.Progress.PagesTotal = st.PagesDone, st.PagesTotal
		c.Header("Retry-After", "1")
		c.JSON(http.StatusAccepted, b)
	case tasks.Answered:
		s.fail(c, apierr.New(apierr.TaskNotFound, "Task "+id+" was answered synchronously: its result was in that reply "+
			"and is not kept (send async=true to fetch a result from /result)"))
	case tasks.Failed:
		status := http.StatusInternalServerError
		if st.Error != nil && st.Error.Code >= 400 {
			status = st.Error.Code
		}
		// A task's 503 (a dependency down, a pipeline timeout) is answered
		// as every 503 is: with Retry-After, sending again may succeed.
		if status == http.StatusServiceUnavailable {
			c.Header("Retry-After", "5")
		}
		c.JSON(status, st.Error)
	default:
		body, err := s.queue.Result(c.Request.Context(), st)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Data(http.StatusOK, "application/json; charset=utf-8", body)
	}
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

func itoa(n int) string { return strconv.Itoa(n) }
