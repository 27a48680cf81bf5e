package decode

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// ErrPDFPassword is a PDF encrypted with a user password: no reader opens
// it without. It wraps ErrCorrupt (docs/formats.md).
var ErrPDFPassword = errors.New("pdf: encrypted with a password, needed to open it")

// pdfPage is what pdfinfo tells of one page.
type pdfPage struct {
	w, h float64 // points, of the crop box: what a viewer shows
	rot  int
	// crop is the crop box (x0, y0, x1, y1) in default user space, where
	// the page's content places its image.
	crop [4]float64
}

// pdfImage is one row of `pdfimages -list`.
type pdfImage struct {
	kind       string // image, mask, smask, stencil
	w, h       int
	xppi, yppi float64
	enc        string
	comps      int    // colour components
	bpc        int    // bits per component
	obj        string // "12 0 R", as qpdf names objects
}

// pdfDoc is an opened PDF: page sizes are known, pages are rendered or
// extracted on request by poppler in child processes.
type pdfDoc struct {
	path  string
	opts  Options
	pages []pdfPage

	imagesOnce sync.Once
	images     map[int][]pdfImage // 1-based page
	imagesErr  error
	textOnce   sync.Once
	text       []bool // page has a text layer
	textErr    error
	objsOnce   sync.Once
	objs       *pdfObjects // qpdf's view of the file's objects
	objsErr    error
	jpegMu     sync.Mutex
	jpegErrs   map[string]error // image object → jpegUnsupported of its stream
}

func openPDF(ctx context.Context, data []byte, opts Options) (*pdfDoc, error) {
	path, err := tempCopy(opts.TempDir, pdfCopyPattern, data)
	if err != nil {
		return nil, err
	}
	d := &pdfDoc{path: path, opts: opts}
	if err := d.readInfo(ctx); err != nil {
		_ = d.Close()
		return nil, err
	}
	return d, nil
}

// readInfo reads the page count, refusing files over the page limit before
// asking for each page's size.
func (d *pdfDoc) readInfo(ctx context.Context) error {
	out, err := runTool(ctx, 1<<30, 1<<20, "pdfinfo", d.path)
	if err != nil {
		var te *toolError
		if errors.As(err, &te) && bytes.Contains(te.stderr, []byte("Incorrect password")) {
			return fmt.Errorf("%w: %w", ErrCorrupt, ErrPDFPassword)
		}
		return corrupt(PDF, err)
	}
	n := -1
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n <= 0 {
		return fmt.Errorf("%w: pdf: no pages", ErrCorrupt)
	}
	if n > d.opts.MaxPages {
		return &LimitError{Limit: LimitPages, Value: int64(n), Max: int64(d.opts.MaxPages)}
	}
	out, err = runTool(ctx, 1<<30, 4<<20, "pdfinfo", "-box", "-f", "1", "-l", strconv.Itoa(n), d.path)
	if err != nil {
		return corrupt(PDF, err)
	}
	d.pages = make([]pdfPage, n)
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// "Page    1 size:  593.814 x 838.763 pts", "Page    1 rot:   0" and
		// "Page    1 CropBox:     0.00     0.00   593.81   838.76"
		if len(f) < 4 || f[0] != "Page" {
			continue
		}
		i, err := strconv.Atoi(f[1])
		if err != nil || i < 1 || i > n {
			continue
		}
		switch {
		case f[2] == "size:" && len(f) >= 6:
			d.pages[i-1].w, _ = strconv.ParseFloat(f[3], 64)
			d.pages[i-1].h, _ = strconv.ParseFloat(f[5], 64)
		case f[2] == "rot:":
			d.pages[i-1].rot, _ = strconv.Atoi(f[3])
		case f[2] == "CropBox:" && len(f) >= 7:
			for k := range 4 {
				d.pages[i-1].crop[k], _ = strconv.ParseFloat(f[3+k], 64)
			}
		}
	}
	return nil
}

func (d *pdfDoc) Format() Format { return PDF }
func (d *pdfDoc) Pages() int     { return len(d.pages) }

// Close removes the temporary copy.
func (d *pdfDoc) Close() error {
	if err := os.Remove(d.path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("decode: remove temporary PDF: %w", err)
	}
	return nil
}

// Page returns page i: the scanned image itself when the options allow it
// and the page shows it as stored, otherwise the page rasterised as JPEG of
// the requested quality: at DPI, or (a scanned page whose image is not
// shown as stored) at DPI but never above the image's own resolution.
func (d *pdfDoc) Page(ctx context.Context, i int) (image.Image, error) {
	if err := checkPage(i, len(d.pages)); err != nil {
		return nil, err
	}
	if d.opts.PDFRawImages {
		if im, ok := d.scannedImage(ctx, i); ok {
			ppi, stored := d.shownAsStored(ctx, i, im)
			if !stored {
				return d.rasterise(ctx, i, max(min(d.opts.DPI, int(math.Round(ppi))), 1))
			}
			img, err := d.extract(ctx, i, im)
			if err == nil {
				// A viewer shows the page turned clockwise by its /Rotate;
				// so is the image.
				return cvimg.Turn(img, geom.Rotation(((d.pages[i].rot/90)%4+4)%4))
			}
			var le *LimitError
			if errors.As(err, &le) || errors.Is(err, ErrUnsupported) || ctx.Err() != nil {
				return nil, err
			}
			// An image poppler cannot write out is rasterised instead.
		}
	}
	return d.rasterise(ctx, i, d.opts.DPI)
}

// scannedImage reports the page's image when the page is a scan: exactly
// one opaque image covering at least 85% of the page (as stored, before
// its /Rotate, a quarter turn or more), and (with AutoPDFRawImages) no
// text layer.
func (d *pdfDoc) scannedImage(ctx context.Context, i int) (pdfImage, bool) {
	p := d.pages[i]
	if p.rot%90 != 0 || p.w <= 0 || p.h <= 0 {
		return pdfImage{}, false
	}
	d.imagesOnce.Do(func() { d.images, d.imagesErr = d.listImages(ctx) })
	if d.imagesErr != nil {
		return pdfImage{}, false
	}
	ims := d.images[i+1]
	if len(ims) != 1 || ims[0].kind != "image" || ims[0].xppi <= 0 || ims[0].yppi <= 0 {
		return pdfImage{}, false
	}
	im := ims[0]
	cw := float64(im.w) / im.xppi * 72 / p.w
	ch := float64(im.h) / im.yppi * 72 / p.h
	if cw < 0.85 || ch < 0.85 || cw > 1.15 || ch > 1.15 {
		return pdfImage{}, false
	}
	if d.opts.AutoPDFRawImages {
		d.textOnce.Do(func() { d.text, d.textErr = d.textLayers(ctx) })
		if d.textErr != nil || (i < len(d.text) && d.text[i]) {
			return pdfImage{}, false
		}
	}
	return im, true
}

// listImages runs `pdfimages -list` over the whole file once.
func (d *pdfDoc) listImages(ctx context.Context) (map[int][]pdfImage, error) {
	out, err := runTool(ctx, 1<<30, 16<<20, "pdfimages", "-list", d.path)
	if err != nil {
		return nil, err
	}
	res := map[int][]pdfImage{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		// page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
		if len(f) < 14 {
			continue
		}
		page, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		w, _ := strconv.Atoi(f[3])
		h, _ := strconv.Atoi(f[4])
		xppi, _ := strconv.ParseFloat(f[12], 64)
		yppi, _ := strconv.ParseFloat(f[13], 64)
		comps, _ := strconv.Atoi(f[6])
		bpc, _ := strconv.Atoi(f[7])
		res[page] = append(res[page], pdfImage{kind: f[2], w: w, h: h, xppi: xppi, yppi: yppi, enc: f[8], comps: comps, bpc: bpc,
			obj: f[10] + " " + f[11] + " R"})
	}
	return res, nil
}

// textLayers tells, per page, whether pdftotext finds any text.
func (d *pdfDoc) textLayers(ctx context.Context) ([]bool, error) {
	out, err := runTool(ctx, 1<<30, 64<<20, "pdftotext", "-q", "-f", "1", "-l", strconv.Itoa(len(d.pages)), d.path, "-")
	if err != nil {
		return nil, err
	}
	pages := bytes.Split(out, []byte{'\f'})
	res := make([]bool, len(d.pages))
	for i := range res {
		if i < len(pages) {
			res[i] = len(bytes.TrimSpace(pages[i])) > 0
		}
	}
	return res, nil
}

// extract writes the page's image out as it is stored (JPEG streams
// untouched, anything else as PNG) and decodes it. An image of more than
// 8 bits a sample is written as 8-bit PPM or PGM instead: poppler 22's
// 16-bit PNG writer turns every full-scale sample to 0 (yellow and green
// speckle over white paper), its PPM is exact.
func (d *pdfDoc) extract(ctx context.Context, i int, im pdfImage) (image.Image, error) {
	if err := d.opts.checkPixels(i, int64(im.w), int64(im.h)); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(d.opts.TempDir, pdfImagePattern)
	if err != nil {
		return nil, fmt.Errorf("decode: temporary folder: %w", err)
	}
	defer os.RemoveAll(dir)
	pg := strconv.Itoa(i + 1)
	px := int64(im.w) * int64(im.h)
	args := []string{"-f", pg, "-l", pg, "-j"}
	if im.bpc <= 8 {
		args = append(args, "-png")
	}
	if _, err := runTool(ctx, memoryFor(px), 1<<20, "pdfimages", append(args, d.path, filepath.Join(dir, "img"))...); err != nil {
		return nil, corrupt(PDF, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "img-*"))
	if len(files) != 1 {
		return nil, fmt.Errorf("%w: pdf: page %d: %d images written", ErrCorrupt, i+1, len(files))
	}
	if filepath.Ext(files[0]) == ".jpg" {
		// A JPEG stream is written as stored, whatever its dictionary
		// says of its bits.
		im.bpc = 8
	}
	if im.bpc > 8 {
		fh, err := os.Open(files[0])
		if err != nil {
			return nil, fmt.Errorf("decode: read extracted image: %w", err)
		}
		defer fh.Close()
		img, err := readPNM(bufio.NewReader(fh), d.opts, i)
		if err != nil {
			return nil, fmt.Errorf("%w: pdf: page %d: extracted image: %v", ErrCorrupt, i+1, err)
		}
		return img, nil
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return nil, fmt.Errorf("decode: read extracted image: %w", err)
	}
	f, err := Sniff(data)
	if err != nil || (f != JPEG && f != PNG) {
		return nil, fmt.Errorf("%w: pdf: page %d: unexpected extracted image", ErrCorrupt, i+1)
	}
	doc, err := openImage(data, f, d.opts)
	if errors.Is(err, ErrUnsupported) { // a JPEG of 12 bits, lossless or hierarchical
		return nil, fmt.Errorf("%w: pdf: page %d's scanned image, which poppler does not read either", err, i+1)
	}
	if err != nil {
		return nil, err
	}
	doc.orientation = 1 // PDF viewers ignore EXIF inside embedded images
	return doc.Page(ctx, 0)
}

// rasterise renders the page's crop box (what a viewer shows; poppler's
// default, the media box, can be larger) at dpi through JPEG of the
// requested quality. A page drawing a JPEG no decoder here reads is refused
// (ErrUnsupported) first.
func (d *pdfDoc) rasterise(ctx context.Context, i, dpi int) (image.Image, error) {
	// poppler renders a JPEG it cannot read as nothing: refuse the page
	// as the plain case (extract) does, never answer it blank.
	if err := d.unreadableJPEG(ctx, i); err != nil {
		return nil, err
	}
	p := d.pages[i]
	scale := float64(dpi) / 72
	w, h := int64(p.w*scale+0.5), int64(p.h*scale+0.5)
	if err := d.opts.checkPixels(i, max(w, 1), max(h, 1)); err != nil {
		return nil, atDPI(err, dpi)
	}
	pg := strconv.Itoa(i + 1)
	q := max(d.opts.Quality, 1)
	// -cropbox: the page as a viewer shows it, and as pdfinfo measured it
	// above. pdftoppm's default is the media box, which a page may make
	// far larger than its crop box (a 200-inch media box under a letter
	// crop box passed the check above as a letter page).
	out, err := runToolWithin(ctx, d.opts.renderLimit, memoryFor(w*h), w*h*3+(1<<20), "pdftoppm", "-cropbox", "-r", strconv.Itoa(dpi), "-f", pg, "-l", pg,
		"-jpeg", "-jpegopt", "quality="+strconv.Itoa(q), "-singlefile", d.path)
	if err != nil {
		return nil, renderFailed(PDF, i, dpi, d.opts.renderLimit, err)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(out))
	if err != nil {
		return nil, corrupt(PDF, err)
	}
	if err := d.opts.checkPixels(i, int64(cfg.Width), int64(cfg.Height)); err != nil {
		return nil, atDPI(err, dpi)
	}
	if !renderedAs(int64(cfg.Width), int64(cfg.Height), w, h, p.rot) {
		// poppler writes a 1×1 picture and exits 0 when it cannot
		// allocate the page's bitmap: never answer that as the page.
		return nil, fmt.Errorf("%w: pdf: page %d rendered as %dx%d pixels, not the %dx%d of its size at dpi %d",
			ErrCorrupt, i+1, cfg.Width, cfg.Height, w, h, dpi)
	}
	img, err := jpeg.Decode(bytes.NewReader(out))
	if err != nil {
		return nil, corrupt(PDF, err)
	}
	return img, nil
}

// renderedAs reports whether a page rendered as gw×gh pixels is the page
// of w×h pixels (unturned) that pdfinfo's size promised, turned by its
// /Rotate rot: within 2 pixels a side, for the renderers' rounding.
// poppler turns a page by a quarter or three only (a /Rotate that is no
// multiple of 90, which pdfinfo reports as it is, turns nothing).
func renderedAs(gw, gh, w, h int64, rot int) bool {
	if r := (rot%360 + 360) % 360; r == 90 || r == 270 {
		w, h = h, w
	}
	near := func(a, b int64) bool { return a-b <= 2 && b-a <= 2 }
	return near(gw, w) && near(gh, h)
}
