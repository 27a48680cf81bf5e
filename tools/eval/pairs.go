package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// pairLine is one line of the -pairs file: a labelled document and the
// item matched with it.
type pairLine struct {
	File       string  `json:"file"`
	Truth      string  `json:"truth"`
	Answer     string  `json:"answer"`
	Confidence float64 `json:"confidence"`
	// IoU is the quads' intersection over union, -1 when the truth has
	// no corners.
	IoU float64 `json:"iou"`
	// RotationOK is set when the orientation was checked (RotationSeen)
	// and right.
	RotationSeen bool `json:"rotation_seen"`
	RotationOK   bool `json:"rotation_ok"`
}

// writePairs writes every matched pair as one JSON line to path.
func (r *results) writePairs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("eval: pairs: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, p := range r.Pairs {
		l := pairLine{File: p.File, Truth: p.Truth, Answer: p.Pred, Confidence: p.Conf,
			IoU: p.IoU, RotationSeen: p.RotSeen, RotationOK: p.RotOK}
		if err := enc.Encode(l); err != nil {
			f.Close()
			return fmt.Errorf("eval: pairs: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("eval: pairs: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("eval: pairs: %w", err)
	}
	return nil
}
