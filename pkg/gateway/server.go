// Package gateway is the HTTP face of the suite (gin): it validates
// requests, stores inputs, runs the pipelines over the stage workers
// synchronously or through the async task queue, and answers the JSON
// contract of the service description. Every error goes through one
// function that writes the catalogue's envelope.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/certfile"
	"docsuite/pkg/config"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/params"
	"docsuite/pkg/pipeline"
	"docsuite/pkg/store"
	"docsuite/pkg/tasks"
	"docsuite/pkg/version"
)

// Version is the release number reported by /healthcheck and the API
// docs (see package version).
func Version() string { return version.Number }

// Server is the gateway.
type Server struct {
	cfg      config.Gateway
	log      *slog.Logger
	nc       *nats.Conn
	store    store.Store
	queue    *tasks.Queue
	pipe     *pipeline.Runner
	auth     *authenticator
	license  *licenseGate
	inflight chan struct{}
	// certs serves TLS_CERT_FILE and TLS_KEY_FILE; nil: plain HTTP.
	certs *certfile.Source
	// uploadMem bounds the memory uploads hold (UPLOAD_MEMORY_BYTES).
	uploadMem *memBudget
	metrics   *metrics
	engine    *gin.Engine
	// classifyParams and recognizeParams name the methods' query
	// parameters (see queryOnly).
	classifyParams, recognizeParams map[string]bool
	// bodyIdle is how long an upload may stall, and bodyMinRate the
	// bytes a second it must average over each bodyIdle (see
	// stallReader).
	bodyIdle    time.Duration
	bodyMinRate int64
	// answerIdle is how long an answer may go unread, and answerMinRate
	// the bytes a second a client must read it at over each answerIdle
	// (see boundWrites; 0: unbounded).
	answerIdle    time.Duration
	answerMinRate int64
	// lateCleanup is how long after a synchronous request cut short its
	// task's objects are removed again (see runSync): the stage workers'
	// PIPELINE_TIMEOUT and a margin.
	lateCleanup time.Duration
}

// New builds a gateway on an open NATS connection and store. Its metrics
// go to reg, and the stage round trips to stageMetrics.
func New(ctx context.Context, cfg config.Gateway, nc *nats.Conn, st store.Store, log *slog.Logger,
	reg *prometheus.Registry, stageMetrics *bus.Metrics) (*Server, error) {
	var certs *certfile.Source
	if cfg.TLSCertFile != "" {
		c, err := certfile.Open(cfg.TLSCertFile, cfg.TLSKeyFile, log)
		if err != nil {
			return nil, fmt.Errorf("gateway: HTTPS (TLS_CERT_FILE=%s, TLS_KEY_FILE=%s): %w", cfg.TLSCertFile, cfg.TLSKeyFile, err)
		}
		certs = c
	}
	q, err := tasks.Open(ctx, nc, st, tasks.Options{TTL: cfg.TTL(), Timeout: cfg.Timeout()}, log)
	if err != nil {
		return nil, err
	}
	auth, err := newAuthenticator(ctx, cfg, nc)
	if err != nil {
		return nil, err
	}
	lic, err := newLicenseGate(ctx, cfg, nc, log)
	if err != nil {
		return nil, err
	}
	fc, err := fakecheck.New()
	if err != nil {
		return nil, fmt.Errorf("gateway: check_fake: %w", err)
	}
	s := &Server{
		cfg: cfg, log: log, nc: nc, store: st, queue: q, auth: auth, license: lic, certs: certs,
		pipe: pipeline.New(nc, st, pipeline.Limits{MaxPages: cfg.MaxPages, MaxPixels: cfg.MaxPixels,
			MaxFilePixels: cfg.MaxFilePixels, PageParallel: cfg.PageParallel}, stageMetrics, fc),
		inflight:        make(chan struct{}, cfg.MaxInFlight),
		uploadMem:       newMemBudget(cfg.UploadMemory),
		metrics:         newMetrics(reg),
		classifyParams:  paramNames(params.ClassifySpec()),
		recognizeParams: paramNames(params.RecognizeSpec()),
		bodyIdle:        bodyIdle,
		bodyMinRate:     cfg.UploadMinRate,
		answerIdle:      answerIdle,
		answerMinRate:   cfg.AnswerMinRate,
		lateCleanup:     cfg.Timeout() + 10*time.Second,
	}
	s.registerGauges(reg)
	s.engine = s.routes()
	return s, nil
}

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler { return s.engine }

// RunTasks runs async tasks until ctx ends.
func (s *Server) RunTasks(ctx context.Context) error {
	return s.queue.Run(ctx, s.cfg.AsyncRunners, s.execTask)
}

// Serve listens on HTTP_ADDR until ctx ends, then shuts down gracefully,
// letting running requests finish within the pipeline timeout. With
// TLS_CERT_FILE it speaks HTTPS only.
func (s *Server) Serve(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("gateway: listen on %s: %w", s.cfg.HTTPAddr, err)
	}
	var public net.Listener = jsonErrListener{ln}
	scheme := "http"
	if s.certs != nil {
		public, scheme = tlsListener{Listener: ln, cfg: s.certs.ServerConfig()}, "https"
	}
	srv := s.httpServer()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(public) }()
	s.log.Info("gateway listening", "addr", s.cfg.HTTPAddr, "scheme", scheme)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout())
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// httpServer is the HTTP server of Serve, for tests to serve as it does.
func (s *Server) httpServer() *http.Server {
	return &http.Server{Handler: s.engine, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idleTimeout}
}

func (s *Server) routes() *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	// A path with a trailing slash is an unknown path answered with the
	// JSON envelope, not a redirect without a body.
	r.RedirectTrailingSlash = false
	r.Use(s.boundWrites(), s.boundUnread(), s.recoverer(), s.observe())
	r.NoRoute(func(c *gin.Context) { s.fail(c, apierr.New(apierr.PathNotFound, "")) })
	r.NoMethod(func(c *gin.Context) { s.fail(c, apierr.New(apierr.MethodNotAllowed, "")) })

	onPrem := r.Group("/pipelines/run", s.requireLicense())
	onPrem.POST("/classify", s.handleClassify(false))
	onPrem.POST("/recognize", s.handleRecognize(false))
	onPrem.POST("/fraud", s.handleStageMethod("fraud", false))
	onPrem.POST("/fulltext", s.handleStageMethod("fulltext", false))

	hosted := r.Group("/", s.requireLicense(), s.requireToken())
	hosted.POST("/classify", s.handleClassify(true))
	hosted.POST("/recognize", s.handleRecognize(true))
	r.GET("/result/:task_id", s.handleResult)

	// Load balancers probe with HEAD as often as with GET; the API page
	// and its document answer HEAD too (docs/api.md).
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		r.Handle(m, "/healthcheck", s.handleHealth)
		r.Handle(m, "/openapi.json", s.handleOpenAPI)
		r.Handle(m, "/docs", s.handleDocs)
		r.Handle(m, "/docs/:asset", s.handleDocsAsset)
	}
	r.GET("/metrics", gin.WrapH(s.metrics.handler()))
	return r
}

// fail writes the error envelope of err: the one place errors become
// HTTP answers.
// A request whose client went away before its answer is logged as such, at
// INFO, and answered 499 as nginx does (nobody reads it): it used to be
// an ERROR "dependency_down: Message bus unavailable: context canceled",
// which sent operators looking at NATS. An upload that stalled cancels
// the request's context too, but is answered (errno 13): its client may
// still be listening.
func (s *Server) fail(c *gin.Context, err error) {
	var stall *stalledError
	if errors.Is(c.Request.Context().Err(), context.Canceled) && !errors.As(err, &stall) {
		s.log.Info("client closed the request before its answer", "path", c.FullPath())
		c.AbortWithStatus(statusClientClosed)
		return
	}
	e := apierr.As(err)
	status := e.Status()
	if status >= 500 {
		s.log.Error("request failed", "path", c.FullPath(), "code", e.Code, "err", err,
			"task_id", c.GetString(taskIDKey), "request_id", requestID(c))
	}
	if status == http.StatusServiceUnavailable {
		c.Header("Retry-After", "5")
		if e.RetryAfter > 0 {
			c.Header("Retry-After", itoa(e.RetryAfter))
		}
	}
	c.AbortWithStatusJSON(status, e.Envelope())
}

// taskIDKey holds, in a request's gin context, the task id its input was
// stored under (none before).
const taskIDKey = "docsuite.task_id"

// requestID is the X-Request-Id nginx passes (the caller's own or one it
// made, also in nginx's access log and the answer's header), so that a
// failure's ERROR line can be found from the access log's 5xx line: up to
// 64 characters of letters, digits, '.', '_' and '-'; anything else is
// left out rather than written to the log.
func requestID(c *gin.Context) string {
	id := c.GetHeader("X-Request-Id")
	if len(id) == 0 || len(id) > 64 {
		return ""
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return ""
		}
	}
	return id
}

// statusClientClosed is nginx's status for a request its client closed.
const statusClientClosed = 499

func (s *Server) recoverer() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if p := recover(); p != nil {
				s.fail(c, apierr.Panic(p))
			}
		}()
		c.Next()
	}
}
