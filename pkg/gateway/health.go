package gateway

import (
	"cmp"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
	"docsuite/pkg/bus"
	"docsuite/pkg/stages"
	"docsuite/pkg/version"
)

// requiredStages must answer their health probe for /healthcheck to pass:
// classification cannot run without them.
var requiredStages = []string{stages.Crop, stages.Classify, stages.Orient}

// optionalStages are probed and reported in the checks without failing
// /healthcheck: classification runs without them, and a deployment may
// leave them out; their routes answer 503 while they are not there (the
// OCR worker of a fresh all-in-one serves a moment after the others).
var optionalStages = []string{stages.OCR, stages.Fraud}

// healthBody is the /healthcheck answer.
type healthBody struct {
	Success bool              `json:"success"`
	Version string            `json:"version"`
	Build   string            `json:"build"`
	Builds  map[string]string `json:"builds"`
	Checks  map[string]string `json:"checks"`
	*apierr.Body
}

func (s *Server) handleHealth(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]string{}
	builds := map[string]string{"gateway": version.BuildOrUnknown()}
	var mu sync.Mutex
	var failed []string
	report := func(name string, err error, required bool) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			checks[name] = err.Error()
			if required {
				failed = append(failed, name)
			}
			return
		}
		checks[name] = "ok"
	}
	record := func(name string, err error) { report(name, err, true) }
	var wg sync.WaitGroup
	wg.Go(func() {
		if !s.nc.IsConnected() {
			record("nats", apierr.New(apierr.DependencyDown, "not connected"))
			return
		}
		record("nats", s.queue.Ping(ctx))
	})
	wg.Go(func() { record("store", s.store.Ping(ctx)) })
	var licenseNote string
	wg.Go(func() {
		note, err := s.license.status(ctx)
		record("license", err)
		licenseNote = note
	})
	probe := func(stage string, required bool) {
		build, err := bus.Health(ctx, s.nc, stage)
		report(stage, err, required)
		if err == nil || build != "" {
			mu.Lock()
			builds[stage] = cmp.Or(build, "unknown")
			mu.Unlock()
		}
	}
	for _, st := range requiredStages {
		wg.Go(func() { probe(st, true) })
	}
	for _, st := range optionalStages {
		wg.Go(func() { probe(st, false) })
	}
	wg.Wait()
	if licenseNote != "" {
		checks["license"] = licenseNote
	}
	if len(failed) == 0 {
		c.JSON(http.StatusOK, healthBody{Success: true, Version: Version(), Build: builds["gateway"], Builds: builds, Checks: checks})
		return
	}
	e := apierr.New(apierr.DependencyDown, "Unhealthy: "+joinSorted(failed))
	b := e.Envelope()
	c.Header("Retry-After", "5")
	c.JSON(http.StatusServiceUnavailable, healthBody{Success: false, Version: Version(), Build: builds["gateway"], Builds: builds, Checks: checks, Body: &b})
}
