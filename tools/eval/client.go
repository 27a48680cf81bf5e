package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"
)

type client struct {
	base   string
	simple bool
	http   *http.Client
}

func newClient(base string, simple bool) *client {
	return &client{base: strings.TrimRight(base, "/"), simple: simple, http: &http.Client{Timeout: 5 * time.Minute}}
}

// predicted is one item of a classification answer.
type predicted struct {
	Type       string
	Page       int
	Rotation   int
	Quad       [4]pt
	Confidence float64
}

type answer struct {
	Items   []predicted
	Pages   int
	Elapsed time.Duration
}

func (c *client) classify(ctx context.Context, data []byte) (answer, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("image", "file")
	_, _ = w.Write(data)
	_ = mw.Close()
	q := "?return_crops=false"
	if c.simple {
		q += "&simple_cropper=true"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/pipelines/run/classify"+q, &body)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return answer{}, fmt.Errorf("status %d: %.300s", resp.StatusCode, raw)
	}
	var r struct {
		PagesCount int `json:"pages_count"`
		Items      []struct {
			Document struct {
				Type       string   `json:"type"`
				Page       int      `json:"page"`
				Rotation   int      `json:"rotation"`
				Coords     [][2]int `json:"coords"`
				Confidence float64  `json:"confidence"`
			} `json:"document"`
		} `json:"items"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return answer{}, err
	}
	a := answer{Pages: r.PagesCount, Elapsed: time.Since(start)}
	for _, it := range r.Items {
		d := it.Document
		p := predicted{Type: d.Type, Page: d.Page, Rotation: d.Rotation, Confidence: d.Confidence}
		for i := 0; i < 4 && i < len(d.Coords); i++ {
			p.Quad[i] = pt{float64(d.Coords[i][0]), float64(d.Coords[i][1])}
		}
		a.Items = append(a.Items, p)
	}
	return a, nil
}
