package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // the factory's crops
	_ "image/png"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/roles"
)

// reading is what the classifier worker reads on one labelled crop.
type reading struct {
	File  string    `json:"file"`
	Type  string    `json:"type"`
	P     []float64 `json:"p"`
	Lines int       `json:"lines"`
	Words []string  `json:"words"`
	// Conf is Tesseract's confidence in each of Words
	// (classify.Evidence.WordConfidence).
	Conf []float64 `json:"conf,omitempty"`
	// Edge says a passport's series and number was read along the right
	// edge (classify.Evidence.EdgeNumber).
	Edge bool `json:"edge"`
	// Rotation is the crop's true orientation code (from the labels), Read
	// the one the evidence reader found.
	Rotation int `json:"rotation"`
	Read     int `json:"read"`
}

// cacheName is the file, in a crops folder, that keeps its readings.
const cacheName = "wordsfit.jsonl"

// readings returns the readings of every crop of dir (from its cache when
// one is there) and the picture's classes.
func readings(ctx context.Context, m config.Models, log *slog.Logger, dir string, repicture bool) ([]reading, []string, error) {
	cl, err := classify.Open(classify.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: 1, Log: log})
	if err != nil {
		return nil, nil, err
	}
	defer cl.Close()
	if rs, err := loadCache(filepath.Join(dir, cacheName)); err == nil {
		if repicture {
			err = pictureAgain(ctx, cl, dir, rs)
		}
		return rs, cl.Classes(), err
	}
	labels, err := loadCache(filepath.Join(dir, "labels.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	ev, err := roles.OpenEvidenceReader(m, log)
	if err != nil {
		return nil, nil, err
	}
	defer ev.Close()
	out := make([]reading, len(labels))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := 0
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := read(ctx, cl, ev, dir, labels[i])
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				out[i] = r
				done++
				if done%50 == 0 {
					fmt.Fprintf(os.Stderr, "%s: %d/%d crops read\n", dir, done, len(labels))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range labels {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return out, cl.Classes(), saveCache(filepath.Join(dir, cacheName), out)
}

func read(ctx context.Context, cl *classify.Classifier, ev *roles.EvidenceReader, dir string, l reading) (reading, error) {
	img, err := loadCrop(dir, l.File)
	if err != nil {
		return l, err
	}
	e, rot, err := ev.Read(ctx, img)
	if err != nil {
		return l, fmt.Errorf("%s: %w", l.File, err)
	}
	if l.P, err = cl.Picture(ctx, img); err != nil {
		return l, fmt.Errorf("%s: %w", l.File, err)
	}
	l.Lines, l.Words, l.Conf, l.Edge, l.Read = e.TextLines, e.Words, e.WordConfidence, e.EdgeNumber, int(rot)
	return l, nil
}

// pictureAgain replaces the picture's probabilities of cached readings
// with cl's (the cache file is left as it is).
func pictureAgain(ctx context.Context, cl *classify.Classifier, dir string, rs []reading) error {
	for i := range rs {
		img, err := loadCrop(dir, rs[i].File)
		if err != nil {
			return err
		}
		if rs[i].P, err = cl.Picture(ctx, img); err != nil {
			return fmt.Errorf("%s: %w", rs[i].File, err)
		}
	}
	return nil
}

// loadCrop reads and decodes one crop of a folder.
func loadCrop(dir, file string) (image.Image, error) {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return img, nil
}

func loadCache(path string) ([]reading, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rs []reading
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r reading
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rs = append(rs, r)
	}
	return rs, sc.Err()
}

func saveCache(path string, rs []reading) error {
	var b bytes.Buffer
	for _, r := range rs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(append(line, '\n'))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
