package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"docsuite/pkg/synth"
)

// sceneJob writes scene_NNNNNN.jpg and scene_NNNNNN.json.
func sceneJob(g *synth.Generator, o *options) func(context.Context, int) error {
	return func(ctx context.Context, i int) error {
		sc, err := g.Scene(ctx, i)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("scene_%06d", i)
		jb, err := synth.EncodeJPEG(sc.Img, sc.Quality)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, name+".jpg"), jb, 0o644); err != nil {
			return fmt.Errorf("write image: %w", err)
		}
		return writeJSON(filepath.Join(o.out, name+".json"), sc.Record(name+".jpg"))
	}
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// cropLabel is one line of labels.jsonl in crops mode.
type cropLabel struct {
	File     string            `json:"file"`
	Type     string            `json:"type"`
	Rotation int               `json:"rotation"`
	Fields   map[string]string `json:"fields,omitempty"`
}

// cropJob writes crop_NNNNNN_J.jpg per document and, at the end,
// labels.csv (file,type,rotation) and labels.jsonl (with fields), both
// sorted by file name.
func cropJob(g *synth.Generator, o *options) (func(context.Context, int) error, func() error, error) {
	var mu sync.Mutex
	var labels []cropLabel
	cut := g.Crops
	closeFinder := func() error { return nil }
	switch {
	case o.clutterCrops:
		cut = g.ClutterCrops
	case o.pageCrops:
		cut = g.PageCrops
	case o.foundBy != "":
		find, closeFn, err := neuralFinder(o.foundBy, o.foundMinIoU, o.foundMaxIoU)
		if err != nil {
			return nil, nil, err
		}
		closeFinder = closeFn
		cut = func(ctx context.Context, i, size int, _ float64) ([]synth.Crop, error) {
			return g.FoundCrops(ctx, i, size, find)
		}
	}
	job := func(ctx context.Context, i int) error {
		crops, err := cut(ctx, i, o.cropSize, o.cropJitter)
		if err != nil {
			return err
		}
		for j, c := range crops {
			name := fmt.Sprintf("crop_%06d_%d.jpg", i, j)
			jb, err := synth.EncodeJPEG(c.Img, 92)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(o.out, name), jb, 0o644); err != nil {
				return fmt.Errorf("write crop: %w", err)
			}
			mu.Lock()
			labels = append(labels, cropLabel{File: name, Type: c.Type, Rotation: int(c.Rotation), Fields: c.Fields})
			mu.Unlock()
		}
		return nil
	}
	finish := func() error {
		if err := closeFinder(); err != nil {
			return err
		}
		sort.Slice(labels, func(a, b int) bool { return labels[a].File < labels[b].File })
		csv, err := os.Create(filepath.Join(o.out, "labels.csv"))
		if err != nil {
			return fmt.Errorf("labels: %w", err)
		}
		defer csv.Close()
		jl, err := os.Create(filepath.Join(o.out, "labels.jsonl"))
		if err != nil {
			return fmt.Errorf("labels: %w", err)
		}
		defer jl.Close()
		fmt.Fprintln(csv, "file,type,rotation")
		enc := json.NewEncoder(jl)
		for _, l := range labels {
			fmt.Fprintf(csv, "%s,%s,%d\n", l.File, l.Type, l.Rotation)
			if err := enc.Encode(l); err != nil {
				return fmt.Errorf("labels: %w", err)
			}
		}
		return nil
	}
	return job, finish, nil
}
