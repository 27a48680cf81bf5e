// Package ocr reads the text of a page image with Tesseract 5 (Russian and
// English) through its C API: words with their confidence and boxes,
// grouped into lines and blocks, and the page's plain text.
//
// Tesseract runs single-threaded per page: its OpenMP build is seven times
// slower on two cores otherwise. OMP_THREAD_LIMIT=1 must be in the
// process's environment when it starts (the Makefile, the Dockerfile and
// the topology set it, and pkg/cli starts a model role again with it when
// it is missing): libgomp reads it when loaded, before any Go code runs,
// so New setting it when unset only passes it on to child processes
// (measured: a passport's extraction on one core 0.84 s with the variable
// set by New alone, 0.58 s with it in the environment).
//
// Engines are expensive to create (the language data is loaded once per
// engine), so an Engine keeps a pool of them.
package ocr

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"os"
	"sync"

	"github.com/otiai10/gosseract/v2"
)

// Languages are the Tesseract languages read by default.
var Languages = []string{"rus", "eng"}

// Word is one recognised word.
type Word struct {
	Text       string    `json:"text"`
	Confidence float64   `json:"confidence"`
	Coords     [4][2]int `json:"coords"`
}

// Line is one text line: its words joined by spaces.
type Line struct {
	Text       string    `json:"text"`
	Confidence float64   `json:"confidence"`
	Coords     [4][2]int `json:"coords"`
	Block      int       `json:"block"`
	// Document is the document of the page the line was read on (1-based,
	// see Page.Documents), 0 for a page read whole or the rest of a page.
	Document int    `json:"document"`
	Words    []Word `json:"words"`
}

// Page is the text of one page image.
type Page struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Rotation is how the page was turned to be read: the classification's
	// rotation code, 0 to 3 quarter turns clockwise (never mirrored).
	Rotation int    `json:"rotation"`
	Text     string `json:"text"`
	Lines    []Line `json:"lines"`
	// Documents are the documents read one by one (ReadDocuments), in
	// the order of their lines; empty when the page was read whole.
	Documents []Document `json:"documents"`
}

// Engine is a pool of Tesseract engines, safe for concurrent use. Engines
// are created when requests need them, up to the pool's size (creating
// one loads the language data, about half a second: a worker starting
// does not wait for it, and a missing language fails the first request).
type Engine struct {
	langs []string
	idle  chan *worker
	slots chan struct{} // one per engine that may still be created
}

// New prepares up to size engines reading langs.
func New(size int, langs ...string) (*Engine, error) {
	if len(langs) == 0 {
		langs = Languages
	}
	if os.Getenv("OMP_THREAD_LIMIT") == "" {
		_ = os.Setenv("OMP_THREAD_LIMIT", "1")
	}
	silenceLeptonica()
	size = max(size, 1)
	e := &Engine{langs: langs, idle: make(chan *worker, size), slots: make(chan struct{}, size)}
	for i := 0; i < size; i++ {
		e.slots <- struct{}{}
	}
	return e, nil
}

// Size is how many pages the engine reads at once, at most.
func (e *Engine) Size() int { return cap(e.idle) }

// worker is one pooled Tesseract engine, with the orientation detector
// full-text pages use, loaded the first time a page is read.
type worker struct {
	c   *gosseract.Client
	osd *osd
}

// close releases the worker's engines.
func (w *worker) close() {
	_ = w.c.Close()
	if w.osd != nil {
		w.osd.close()
	}
}

// tesseractInit serialises the Tesseract initialisations of the whole
// process. gosseract's Init points the process's standard error (file
// descriptor 2) at /dev/null while Tesseract loads its languages, to catch
// its messages, and points it back afterwards. Two engines initialised at
// once (the all-in-one's classifier, orienter and ocr roles filling their
// pools at the first requests) each kept the descriptor they found as the
// one to restore, the second one /dev/null, and the process's stderr
// stayed /dev/null: every log line after the first requests was lost. The
// descriptor is the process's, so the lock is too: the one piece of
// package-level state here.
var tesseractInit sync.Mutex

// newClient returns a Tesseract engine initialised with the languages.
// gosseract initialises Tesseract at the first recognition, and that Init
// resets the page segmentation mode set before it: the first field each
// engine read was read as a block of text where every later one is read
// as a line (the same crop was answered differently on a worker's first
// request than on the next). Initialising here, on a blank image, makes
// the first read like the rest.
func (e *Engine) newClient() (*gosseract.Client, error) {
	c := gosseract.NewClient()
	// Tesseract prints its progress ("Estimating resolution as 188",
	// "Detected 47 diacritics") to the process's stderr, where it broke
	// into the workers' structured log lines, one or more a page.
	if err := c.DisableOutput(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("ocr: silence Tesseract's messages: %w", err)
	}
	if err := c.SetLanguage(e.langs...); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("ocr: languages %v: %w", e.langs, err)
	}
	if err := c.SetImageFromBytes(pnm(image.NewGray(image.Rect(0, 0, 8, 8)))); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("ocr: blank image: %w", err)
	}
	tesseractInit.Lock()
	_, err := c.Text() // gosseract's Init, see tesseractInit
	tesseractInit.Unlock()
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("ocr: initialise languages %v: %w", e.langs, err)
	}
	return c, nil
}

// acquire returns an idle worker, or a new one while the pool has room.
func (e *Engine) acquire(ctx context.Context) (*worker, error) {
	select {
	case w := <-e.idle:
		return w, nil
	default:
	}
	select {
	case w := <-e.idle:
		return w, nil
	case <-e.slots:
		c, err := e.newClient()
		if err != nil {
			e.slots <- struct{}{}
			return nil, err
		}
		return &worker{c: c}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close releases the idle engines.
func (e *Engine) Close() {
	for {
		select {
		case w := <-e.idle:
			w.close()
		default:
			return
		}
	}
}

// quad is a box's corners in the API's order: top-left, top-right,
// bottom-left, bottom-right.
func quad(r image.Rectangle) [4][2]int {
	return [4][2]int{{r.Min.X, r.Min.Y}, {r.Max.X, r.Min.Y}, {r.Min.X, r.Max.Y}, {r.Max.X, r.Max.Y}}
}

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

// pnm encodes the image as binary PGM or PPM, which Leptonica reads
// without the cost of PNG compression.
func pnm(img image.Image) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	var buf bytes.Buffer
	if g, ok := img.(*image.Gray); ok {
		fmt.Fprintf(&buf, "P5\n%d %d\n255\n", w, h)
		for y := 0; y < h; y++ {
			buf.Write(g.Pix[(y+b.Min.Y-g.Rect.Min.Y)*g.Stride+(b.Min.X-g.Rect.Min.X):][:w])
		}
		return buf.Bytes()
	}
	rgba, ok := img.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(rgba, rgba.Bounds(), img, b.Min, draw.Src)
		b = rgba.Bounds()
	}
	fmt.Fprintf(&buf, "P6\n%d %d\n255\n", w, h)
	row := make([]byte, 3*w)
	for y := 0; y < h; y++ {
		src := rgba.Pix[(y+b.Min.Y-rgba.Rect.Min.Y)*rgba.Stride+4*(b.Min.X-rgba.Rect.Min.X):]
		for x := 0; x < w; x++ {
			row[3*x], row[3*x+1], row[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
		}
		buf.Write(row)
	}
	return buf.Bytes()
}

// HasLanguage reports whether Tesseract's data for lang (its code, "jpn")
// is installed where the engines look for it.
func HasLanguage(lang string) bool {
	langs, err := gosseract.GetAvailableLanguages()
	if err != nil {
		return false
	}
	for _, l := range langs {
		if l == lang {
			return true
		}
	}
	return false
}
