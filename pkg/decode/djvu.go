package decode

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// djvuPage is a page's stored size and resolution.
type djvuPage struct {
	w, h, dpi int
}

// djvuDoc is an opened DJVU file; djvulibre renders pages on request.
type djvuDoc struct {
	path  string
	opts  Options
	pages []djvuPage
}

// infoLine matches djvudump's page INFO chunk: "DjVu 2550x3300, v24, 300 dpi".
var infoLine = regexp.MustCompile(`INFO \[\d+\]\s+DjVu (\d+)x(\d+)(?:, v\d+)?(?:, (\d+) dpi)?`)

// defaultDJVUdpi is DjVu's resolution when a page does not state one.
const defaultDJVUdpi = 300

// ErrIndirectDJVU is an indirect DjVu document: an index naming its
// pages, each kept in a file of its own, which an upload of the index
// does not carry. It wraps ErrUnsupported: only bundled documents are read.
var ErrIndirectDJVU = errors.New("indirect DjVu document")

// djvuIndirect reports an indirect multi-page document: its DIRM chunk
// (the first of a DJVM form) has the bundled flag (0x80) clear. It returns
// the number of component files the index names.
func djvuIndirect(data []byte) (int, bool) {
	if len(data) < 27 || string(data[12:16]) != "DJVM" || string(data[16:20]) != "DIRM" {
		return 0, false
	}
	if data[24]&0x80 != 0 {
		return 0, false
	}
	return int(data[25])<<8 | int(data[26]), true
}

func openDJVU(ctx context.Context, data []byte, opts Options) (*djvuDoc, error) {
	if n, ok := djvuIndirect(data); ok {
		return nil, fmt.Errorf("%w: %w: its index names %d files, each a page or a shared part, which an upload of the index does not carry",
			ErrUnsupported, ErrIndirectDJVU, n)
	}
	path, err := tempCopy(opts.TempDir, djvuCopyPattern, data)
	if err != nil {
		return nil, err
	}
	d := &djvuDoc{path: path, opts: opts}
	if err := d.readInfo(ctx); err != nil {
		_ = d.Close()
		return nil, err
	}
	return d, nil
}

func (d *djvuDoc) readInfo(ctx context.Context) error {
	out, err := runTool(ctx, 1<<30, 1<<20, "djvused", d.path, "-e", "n")
	if err != nil {
		return corrupt(DJVU, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || n <= 0 {
		return fmt.Errorf("%w: djvu: no pages", ErrCorrupt)
	}
	if n > d.opts.MaxPages {
		return &LimitError{Limit: LimitPages, Value: int64(n), Max: int64(d.opts.MaxPages)}
	}
	d.pages = make([]djvuPage, n)
	out, err = runTool(ctx, 1<<30, 16<<20, "djvudump", d.path)
	if err != nil {
		return corrupt(DJVU, err)
	}
	m := infoLine.FindAllStringSubmatch(string(out), -1)
	if len(m) != n {
		return fmt.Errorf("%w: djvu: %d pages but %d page headers", ErrCorrupt, n, len(m))
	}
	for i, s := range m {
		w, _ := strconv.Atoi(s[1])
		h, _ := strconv.Atoi(s[2])
		dpi, _ := strconv.Atoi(s[3])
		if dpi <= 0 {
			dpi = defaultDJVUdpi
		}
		d.pages[i] = djvuPage{w: w, h: h, dpi: dpi}
	}
	return nil
}

func (d *djvuDoc) Format() Format { return DJVU }
func (d *djvuDoc) Pages() int     { return len(d.pages) }

// Close removes the temporary copy.
func (d *djvuDoc) Close() error {
	if err := os.Remove(d.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("decode: remove temporary DJVU: %w", err)
	}
	return nil
}

// Scale is the resolution page i is rendered at: DPI, but never above the
// page's own resolution (upsampling a scan adds nothing but pixels).
func (d *djvuDoc) scale(i int) int {
	return min(d.opts.DPI, d.pages[i].dpi)
}

// Page renders page i with ddjvu (page rotation applied) as PPM.
func (d *djvuDoc) Page(ctx context.Context, i int) (image.Image, error) {
	if err := checkPage(i, len(d.pages)); err != nil {
		return nil, err
	}
	p := d.pages[i]
	s := d.scale(i)
	w := (int64(p.w)*int64(s) + int64(p.dpi) - 1) / int64(p.dpi)
	h := (int64(p.h)*int64(s) + int64(p.dpi) - 1) / int64(p.dpi)
	if err := d.opts.checkPixels(i, max(w, 1), max(h, 1)); err != nil {
		return nil, atDPI(err, s)
	}
	// The PPM is read row by row as ddjvu writes it.
	var img image.Image
	err := streamToolWithin(ctx, d.opts.renderLimit, memoryFor(w*h), (w+2)*(h+2)*3+4096, func(r io.Reader) error {
		var err error
		img, err = readPNM(bufio.NewReaderSize(r, 1<<16), d.opts, i)
		return err
	}, "ddjvu", "-format=ppm", "-page="+strconv.Itoa(i+1), "-scale="+strconv.Itoa(s), d.path, "-")
	if err != nil {
		var le *LimitError
		if errors.As(err, &le) {
			return nil, le
		}
		return nil, renderFailed(DJVU, i, s, d.opts.renderLimit, err)
	}
	return img, nil
}
