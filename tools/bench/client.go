package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

type client struct {
	base string
	http *http.Client
}

func newClient(base string) *client {
	return &client{base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: 5 * time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}
}

// classify posts one file synchronously and returns the latency.
func (c *client) classify(ctx context.Context, data []byte) (time.Duration, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("image", "file")
	_, _ = w.Write(data)
	_ = mw.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/pipelines/run/classify?return_crops=true", &body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	if resp.StatusCode != http.StatusOK {
		return d, fmt.Errorf("status %d: %.200s", resp.StatusCode, raw)
	}
	return d, nil
}

// latencyResult is the sequential single-document run.
type latencyResult struct {
	N             int
	P50, P95, P99 time.Duration
	Mean          time.Duration
}

func (c *client) latency(ctx context.Context, data []byte, n int) (latencyResult, error) {
	ds := make([]time.Duration, 0, n)
	var sum time.Duration
	for range n {
		d, err := c.classify(ctx, data)
		if err != nil {
			return latencyResult{}, err
		}
		ds = append(ds, d)
		sum += d
	}
	sortDurations(ds)
	return latencyResult{N: n, P50: percentile(ds, .5), P95: percentile(ds, .95), P99: percentile(ds, .99), Mean: sum / time.Duration(n)}, nil
}

// runResult is one throughput run.
type runResult struct {
	Concurrency   int
	Docs          int
	Errors        int
	Wall          time.Duration
	RPS           float64
	P50, P95, P99 time.Duration
}

func (c *client) throughput(ctx context.Context, batch [][]byte, docs, conc int) (runResult, error) {
	jobs := make(chan []byte)
	var mu sync.Mutex
	var ds []time.Duration
	errs := 0
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for data := range jobs {
				d, err := c.classify(ctx, data)
				mu.Lock()
				if err != nil {
					errs++
				} else {
					ds = append(ds, d)
				}
				mu.Unlock()
			}
		})
	}
	for i := range docs {
		jobs <- batch[i%len(batch)]
	}
	close(jobs)
	wg.Wait()
	wall := time.Since(start)
	sortDurations(ds)
	r := runResult{Concurrency: conc, Docs: docs, Errors: errs, Wall: wall, RPS: float64(len(ds)) / wall.Seconds(),
		P50: percentile(ds, .5), P95: percentile(ds, .95), P99: percentile(ds, .99)}
	if errs > docs/10 {
		return r, fmt.Errorf("concurrency %d: %d of %d requests failed", conc, errs, docs)
	}
	return r, nil
}

// metrics reads the Prometheus text of /metrics as name{labels} -> value.
func (c *client) metrics(ctx context.Context) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			out[line[:i]] = v
		}
	}
	return out, sc.Err()
}
