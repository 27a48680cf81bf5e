package decode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime/debug"
	"strings"
	"sync"

	"gocv.io/x/gocv"
	"golang.org/x/image/bmp"

	"docsuite/pkg/cvimg"
)

// imageDoc is a single-image file: one page, decoded on request.
type imageDoc struct {
	data   []byte
	format Format
	opts   Options
	// w, h is the header's size as stored (before EXIF orientation).
	w, h int
	// sw, sh is the page's size once its pixels are square (a TIFF fax
	// stored at 204 × 98 dpi, tiffres.go), before orientation too; w, h
	// when they are square already.
	sw, sh int
	// orientation is the EXIF orientation (1..8) of JPEG and TIFF files.
	orientation int

	once sync.Once
	img  image.Image
	err  error
}

func openImage(data []byte, f Format, opts Options) (*imageDoc, error) {
	d := &imageDoc{data: data, format: f, opts: opts, orientation: 1}
	var err error
	switch f {
	case HEIC, HEIF:
		d.w, d.h, err = heifSize(data)
	case BMP:
		d.w, d.h, err = bmpSize(data)
	default:
		var cfg image.Config
		cfg, err = configOf(data, f)
		d.w, d.h = cfg.Width, cfg.Height
	}
	if err != nil {
		return nil, corrupt(f, err)
	}
	d.sw, d.sh = d.w, d.h
	if f == TIFF {
		if x, y, ok := tiffResolution(data); ok {
			d.sw, d.sh = squareSize(d.w, d.h, x, y)
		}
	}
	// The page as it is handed on, which is also the larger of the two
	// images held while it is resampled.
	if err := opts.checkPixels(0, int64(d.sw), int64(d.sh)); err != nil {
		return nil, err
	}
	if f == JPEG {
		if err := jpegUnsupported(data); err != nil {
			return nil, err
		}
	}
	if f == JPEG || f == TIFF {
		d.orientation = exifOrientation(data, f)
	}
	return d, nil
}

func configOf(data []byte, f Format) (image.Config, error) {
	r := bytes.NewReader(data)
	switch f {
	case JPEG:
		cfg, err := jpeg.DecodeConfig(r)
		if _, ok := err.(jpeg.UnsupportedError); ok {
			// An arithmetic-coded (or other) frame image/jpeg does not
			// read: its size from the frame header, for OpenCV to decode.
			if w, h, ok := jpegFrameSize(data); ok {
				return image.Config{Width: w, Height: h}, nil
			}
		}
		return cfg, err
	case PNG:
		return png.DecodeConfig(r)
	case GIF:
		return gif.DecodeConfig(r)
	case TIFF:
		return tiffConfig(data)
	}
	return image.Config{}, fmt.Errorf("no header reader for %s", f)
}

func (d *imageDoc) Format() Format { return d.format }
func (d *imageDoc) Pages() int     { return 1 }
func (d *imageDoc) Close() error   { return nil }

// Page decodes the image once; later calls share the result.
func (d *imageDoc) Page(ctx context.Context, i int) (image.Image, error) {
	if err := checkPage(i, 1); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.once.Do(func() {
		img, err := d.decode()
		if err != nil {
			d.err = corrupt(d.format, err)
			return
		}
		d.collect() // the decoder's buffers: a progressive JPEG's coefficients
		if eight := eightBit(flatten(img)); eight != img {
			img = eight
			d.collect() // the decoder's image, copied to 8 bits
		}
		if d.sw != d.w || d.sh != d.h {
			if img, err = cvimg.Resize(img, image.Pt(d.sw, d.sh)); err != nil {
				d.err = fmt.Errorf("decode: %s: resample to square pixels: %w", d.format, err)
				return
			}
		}
		d.img, d.err = applyOrientation(img, d.orientation)
	})
	return d.img, d.err
}

// leftoverBytes is how much the decoding of a page must have left behind
// (its estimated peak less the page) for collect to collect it: from
// about 22 megapixels (progressive 4:4:4 JPEG, 12 bytes a pixel left) to 45
// (progressive 4:2:0, 16-bit PNG) up. A forced collection costs a 16-megapixel
// progressive phone photo about 70 ms (on 2 cores, 2026-12-07), a fifth of
// its decoding, for leftovers the collector takes at its own pace anyway
// when memory runs short (GOMEMLIMIT); the estimates' margins
// (requestBytes, findBytes) cover what a smaller page leaves behind.
const leftoverBytes = 256 << 20

// collect runs the garbage collector and returns the freed memory to the
// system (debug.FreeOSMemory) when the decoding of the page leaves much
// behind: a progressive JPEG's coefficients (4 bytes a sample) once it is
// decoded, a 16-bit or CMYK image once copied to 8 bits. Left to the
// collector's own pace (the heap may double before it runs, up to the soft
// limit) they were still held when the page was copied, turned and
// searched, and those copies came on top of the decoding's peak; collected
// but kept by Go's heap, OpenCV's memory (the search's) could not use them.
// The heap then is mostly pages, without pointers: a collection takes
// milliseconds.
func (d *imageDoc) collect() {
	if c := d.cost(); c.Peak-c.Page >= leftoverBytes {
		debug.FreeOSMemory()
	}
}

func (d *imageDoc) decode() (img image.Image, err error) {
	defer func() {
		// The standard decoders are expected not to panic, but an upload
		// must never take the process down.
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("decoder panic: %v", r)
		}
	}()
	r := bytes.NewReader(d.data)
	switch d.format {
	case JPEG:
		return decodeJPEG(d.data)
	case PNG:
		return png.Decode(r)
	case GIF:
		return decodeGIF(d.data)
	case TIFF:
		return decodeTIFF(d.data) // the first page
	case BMP:
		img, err := bmp.Decode(r)
		if err == nil {
			return opaqueUnusedAlpha(img), nil
		}
		// x/image/bmp rejects RLE-compressed and 1- and 4-bit palette
		// BMPs: RLE ones are read here, the others by OpenCV. The header
		// size was checked already.
		if img, err := decodeBMPRLE(d.data); !errors.Is(err, errNotRLE) {
			return img, err
		}
		return decodeOpenCV(d.data)
	case HEIC, HEIF:
		return decodeHEIF(d.data)
	}
	return nil, fmt.Errorf("no decoder for %s", d.format)
}

// decodeGIF decodes the first frame as a viewer shows it: on the file's
// logical screen. A frame that does not cover the screen from (0, 0) (one
// placed at an offset, an optimiser's smaller first frame) is laid on a
// screen of transparent pixels, which flatten turns to white paper, so the
// page's grid is the screen's and starts at (0, 0) like every other page's
// (the pipeline clamps coords to the page's width and height). The
// screen's size is the one checked against MaxPixels.
func decodeGIF(data []byte) (image.Image, error) {
	m, err := gif.Decode(bytes.NewReader(data)) // the first frame
	if err != nil {
		return nil, err
	}
	cfg, err := gif.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	screen := image.Rect(0, 0, cfg.Width, cfg.Height)
	if m.Bounds() == screen {
		return m, nil
	}
	out := image.NewNRGBA(screen)
	draw.Draw(out, m.Bounds(), m, m.Bounds().Min, draw.Src)
	return out, nil
}

// opaqueUnusedAlpha makes a 32-bit BMP whose alpha bytes are all 0
// opaque. Many writers leave the fourth byte unused (0), and browsers and
// Windows show such a file opaque; x/image/bmp reads it as alpha (with a
// V4 or V5 header), which left every pixel transparent and the page white.
func opaqueUnusedAlpha(img image.Image) image.Image {
	m, ok := img.(*image.NRGBA)
	if !ok {
		return img
	}
	used := false
	eachAlpha(m, func(a *uint8) bool { used = *a != 0; return !used })
	if !used {
		eachAlpha(m, func(a *uint8) bool { *a = 0xFF; return true })
	}
	return img
}

// eachAlpha calls fn with each pixel's alpha byte of m, row by row, until
// fn returns false.
func eachAlpha(m *image.NRGBA, fn func(a *uint8) bool) {
	b := m.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := m.Pix[m.PixOffset(b.Min.X, y):][:4*b.Dx()]
		for i := 3; i < len(row); i += 4 {
			if !fn(&row[i]) {
				return
			}
		}
	}
}

// jpegEnd is the JPEG end-of-image marker.
var jpegEnd = []byte{0xFF, 0xD9}

// decodeJPEG decodes a JPEG file. A baseline one that lacks only its
// end-of-image marker (some phone apps and interrupted writers leave it
// off, and every viewer shows such a file whole) is read as whole: the
// marker is added and, when its image data then decodes, that is the
// picture. A file cut inside its image data stays an error, not half a
// picture answered as if it were the document; so does a progressive one
// without its marker, which decodes, blurred, from whichever of its
// scans arrived.
func decodeJPEG(data []byte) (image.Image, error) {
	img, err := jpeg.Decode(bytes.NewReader(data))
	if _, ok := err.(jpeg.UnsupportedError); ok {
		// A valid JPEG image/jpeg does not read (arithmetic coding, as
		// some scanners and archival tools write): libjpeg-turbo reads it,
		// when it is whole (libjpeg pads a file cut short with grey).
		if !bytes.HasSuffix(data, jpegEnd) {
			return nil, fmt.Errorf("%w (the file ends early: it was cut short, send the whole file)", err)
		}
		if cvImg, cvErr := decodeOpenCV(data); cvErr == nil {
			return cvImg, nil
		}
		return nil, err
	}
	if err == nil || bytes.HasSuffix(data, jpegEnd) {
		return img, err
	}
	if jpegBaseline(data) {
		ended := append(data[:len(data):len(data)], jpegEnd...)
		if whole, err2 := jpeg.Decode(bytes.NewReader(ended)); err2 == nil {
			return whole, nil
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "short Huffman data") {
		return nil, fmt.Errorf("%w (the file ends early: it was cut short, send the whole file)", err)
	}
	return nil, err
}

// jpegBaseline reports whether a JPEG file's frame is baseline or
// extended sequential (SOF0, SOF1): its one scan holds every pixel at
// full quality, so all of it present means the picture is whole.
func jpegBaseline(data []byte) bool {
	m, _, ok := jpegFrame(data)
	return ok && (m == 0xC0 || m == 0xC1)
}

// ErrJPEGPrecision is a JPEG of other than 8 bits a sample (12, as some
// medical and archival tools write): neither Go's decoder nor libjpeg-turbo
// (OpenCV's, poppler's) as built reads it, and most viewers do not show
// it. It wraps ErrUnsupported.
var ErrJPEGPrecision = errors.New("JPEG of other than 8 bits a sample")

// ErrJPEGLossless is a lossless JPEG (ITU T.81 annex H; SOF3 or SOF11),
// as medical imaging and some archival tools write: neither Go's decoder
// nor libjpeg-turbo 2.1 (OpenCV's, poppler's, and that of most viewers)
// reads one. The error naming it wraps ErrUnsupported too.
var ErrJPEGLossless = errors.New("lossless JPEG")

// ErrJPEGHierarchical is a hierarchical JPEG (ITU T.81 annex J: a DHP
// segment and frames refining one another), which neither Go's decoder nor
// libjpeg-turbo reads. The error naming it wraps ErrUnsupported too.
var ErrJPEGHierarchical = errors.New("hierarchical JPEG")

// jpegProcess tells, from a JPEG file's frame header, a coding process no
// decoder here reads: ErrJPEGLossless, ErrJPEGHierarchical (a DHP
// segment, or a differential frame: SOF5-7, SOF13-15); nil for the
// sequential and progressive files that are read.
func jpegProcess(data []byte) error {
	switch m, _, _ := jpegFrame(data); m {
	case 0xC3, 0xCB:
		return ErrJPEGLossless
	case 0xDE, 0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF:
		return ErrJPEGHierarchical
	}
	return nil
}

// jpegUnsupported returns the error (wrapping ErrUnsupported and one of
// ErrJPEGLossless, ErrJPEGHierarchical, ErrJPEGPrecision) of a JPEG file
// no decoder here reads, told from its frame header; nil for one they read,
// and for one whose frame header is not in data (data may be the file's
// start only).
func jpegUnsupported(data []byte) error {
	if err := jpegProcess(data); err != nil {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if bits, ok := jpegPrecision(data); ok && bits != 8 {
		return fmt.Errorf("%w: %w (this one has %d)", ErrUnsupported, ErrJPEGPrecision, bits)
	}
	return nil
}

// jpegPrecision reads the sample precision of a JPEG file's frame header.
func jpegPrecision(data []byte) (int, bool) {
	_, at, ok := jpegFrame(data)
	if !ok || at+5 > len(data) {
		return 0, false
	}
	return int(data[at+4]), true
}

// jpegFrameSize reads the width and height of a JPEG file's frame header
// (any SOFn marker).
func jpegFrameSize(data []byte) (int, int, bool) {
	_, at, ok := jpegFrame(data)
	if !ok || at+9 > len(data) {
		return 0, 0, false
	}
	h := int(data[at+5])<<8 | int(data[at+6])
	w := int(data[at+7])<<8 | int(data[at+8])
	return w, h, w > 0 && h > 0
}

// jpegFrame walks a JPEG file's markers to its frame header (SOFn), or a
// hierarchical file's DHP segment (which comes before its frames, laid out
// as a frame header, with the whole image's size and precision), and
// returns its marker and offset; ok is false when a scan or the end of the
// image comes first, or the markers run out.
func jpegFrame(data []byte) (marker byte, at int, ok bool) {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 0, 0, false
		}
		m := data[i+1]
		switch {
		case m == 0xFF: // fill byte
			i++
			continue
		case m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC, m == 0xDE:
			return m, i, true
		case m == 0xDA || m == 0xD9:
			return 0, 0, false // a scan or the end before any frame
		case m == 0x01 || (m >= 0xD0 && m <= 0xD7):
			i += 2
			continue
		}
		i += 2 + int(data[i+2])<<8 + int(data[i+3])
	}
	return 0, 0, false
}

// decodeOpenCV decodes with OpenCV's imdecode, leaving any EXIF
// orientation to applyOrientation.
func decodeOpenCV(data []byte) (image.Image, error) {
	m, err := gocv.IMDecode(data, gocv.IMReadColor|gocv.IMReadIgnoreOrientation)
	if err != nil {
		return nil, fmt.Errorf("opencv: %w", err)
	}
	defer m.Close()
	if m.Empty() {
		return nil, fmt.Errorf("opencv cannot decode it")
	}
	return cvimg.ToImage(m)
}

// bmpSize reads the size from a BMP header (BITMAPCOREHEADER or later).
func bmpSize(data []byte) (int, int, error) {
	if len(data) < 26 {
		return 0, 0, fmt.Errorf("short BMP header")
	}
	if binary.LittleEndian.Uint32(data[14:18]) == 12 {
		return int(binary.LittleEndian.Uint16(data[18:20])), int(binary.LittleEndian.Uint16(data[20:22])), nil
	}
	w := int64(int32(binary.LittleEndian.Uint32(data[18:22])))
	h := int64(int32(binary.LittleEndian.Uint32(data[22:26])))
	if h < 0 {
		h = -h // top-down bitmap
	}
	return int(w), int(h), nil
}
