package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// truthDoc is one labelled document.
type truthDoc struct {
	Type     string
	Quad     *[4]pt
	Rotation *int
}

// testCase is one labelled file.
type testCase struct {
	Path  string
	Docs  []truthDoc
	Notes string
}

// loadSynth reads the document factory's per-scene JSON files.
func loadSynth(dir string) ([]testCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []testCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var scene struct {
			File      string `json:"file"`
			Documents []struct {
				Type     string       `json:"type"`
				Quad     [][2]float64 `json:"quad"`
				Rotation int          `json:"rotation"`
			} `json:"documents"`
		}
		if err := json.Unmarshal(b, &scene); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if scene.File == "" {
			continue
		}
		tc := testCase{Path: filepath.Join(dir, filepath.Base(scene.File))}
		for _, d := range scene.Documents {
			td := truthDoc{Type: d.Type}
			if len(d.Quad) == 4 {
				q := [4]pt{}
				for i, p := range d.Quad {
					q[i] = pt{p[0], p[1]}
				}
				td.Quad = &q
			}
			r := d.Rotation
			td.Rotation = &r
			tc.Docs = append(tc.Docs, td)
		}
		out = append(out, tc)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scene JSON in %s", dir)
	}
	return out, nil
}

// loadReal reads manifest.csv (expected types separated by ';') and the
// quads of groundtruth_quads.json where known.
func loadReal(dir string) ([]testCase, error) {
	f, err := os.Open(filepath.Join(dir, "manifest.csv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("manifest.csv: %w", err)
	}
	quads := map[string][]struct {
		Label string       `json:"label"`
		Quad  [][2]float64 `json:"quad"`
	}{}
	if b, err := os.ReadFile(filepath.Join(dir, "groundtruth_quads.json")); err == nil {
		var gt map[string]struct {
			Objects []struct {
				Label string       `json:"label"`
				Quad  [][2]float64 `json:"quad"`
			} `json:"objects"`
		}
		if err := json.Unmarshal(b, &gt); err != nil {
			return nil, fmt.Errorf("groundtruth_quads.json: %w", err)
		}
		for k, v := range gt {
			for _, o := range v.Objects {
				quads[k] = append(quads[k], struct {
					Label string       `json:"label"`
					Quad  [][2]float64 `json:"quad"`
				}{o.Label, o.Quad})
			}
		}
	}
	var out []testCase
	for i, r := range rows {
		if i == 0 || len(r) < 5 {
			continue
		}
		tc := testCase{Path: filepath.Join(dir, r[0])}
		if len(r) > 6 {
			tc.Notes = r[6]
		}
		if q, ok := quads[r[0]]; ok {
			for _, o := range q {
				typ := o.Label
				if j := strings.IndexByte(typ, '('); j > 0 {
					typ = typ[:j]
				}
				qq := [4]pt{}
				if len(o.Quad) == 4 {
					// groundtruth_quads.json lists corners clockwise from top-left.
					qq = [4]pt{{o.Quad[0][0], o.Quad[0][1]}, {o.Quad[1][0], o.Quad[1][1]}, {o.Quad[3][0], o.Quad[3][1]}, {o.Quad[2][0], o.Quad[2][1]}}
				}
				tc.Docs = append(tc.Docs, truthDoc{Type: typ, Quad: &qq})
			}
		} else {
			for _, t := range strings.Split(r[4], ";") {
				if t = strings.TrimSpace(t); t != "" {
					tc.Docs = append(tc.Docs, truthDoc{Type: t})
				}
			}
		}
		out = append(out, tc)
	}
	return out, nil
}
