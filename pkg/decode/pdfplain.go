package decode

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A scanned page's image is taken as pdfimages writes it out only when the
// page shows it as stored. pdfimages writes a JPEG stream untouched (-j),
// so whatever the PDF says of how its samples map to colours is lost:
// /Decode (a grey or RGB JPEG stored negative, a CMYK one stored without
// Adobe's inversion), a /Separation or /DeviceN colour space, the
// /ColorTransform parameter. Other encodings are written through the
// image's colour map, which applies all of these. Whatever the image's
// encoding, the page may also show it other than upright and whole: the
// content stream can flip or turn it, clip it, place it past the crop box,
// paint over it or draw it through transparency, a colour-key /Mask hides
// some of its colours, and annotations lie on top. qpdf (in a child
// process, as the poppler tools) tells the objects these live in;
// pdfContentShows reads the page's content stream.

// pdfObjects is qpdf's JSON of the file: each page's content streams and
// named images, and every object, streams by their dictionary only.
type pdfObjects struct {
	pages []qpdfPage
	objs  map[string]json.RawMessage // "obj:12 0 R" → {"value": ...} or {"stream": {"dict": ...}}
}

// qpdfPage is one entry of qpdf's "pages".
type qpdfPage struct {
	Object   string   `json:"object"`
	Contents []string `json:"contents"`
	Images   []struct {
		Name   string `json:"name"`
		Object string `json:"object"`
	} `json:"images"`
}

// qpdfObject is one object of qpdf's "qpdf" key.
type qpdfObject struct {
	Value  json.RawMessage `json:"value"`
	Stream *struct {
		Dict json.RawMessage `json:"dict"`
		Data *string         `json:"data"`
	} `json:"stream"`
}

// qpdfJSON is the top level of `qpdf --json=2`.
type qpdfJSON struct {
	Pages []qpdfPage         `json:"pages"`
	QPDF  [2]json.RawMessage `json:"qpdf"`
}

// qpdf runs qpdf over the file. A damaged file it reads (a broken
// cross-reference table it rebuilds, as poppler does) is no failure.
func (d *pdfDoc) qpdf(ctx context.Context, args ...string) ([]byte, error) {
	return runTool(ctx, 1<<30, 32<<20, "qpdf", append(append([]string{"--warning-exit-0", "--no-warn"}, args...), d.path)...)
}

// readObjects runs qpdf over the whole file once, stream data left out.
func (d *pdfDoc) readObjects(ctx context.Context) (*pdfObjects, error) {
	out, err := d.qpdf(ctx, "--json=2", "--json-key=pages", "--json-key=qpdf", "--json-stream-data=none")
	if err != nil {
		return nil, err
	}
	var j qpdfJSON
	if err := json.Unmarshal(out, &j); err != nil {
		return nil, fmt.Errorf("qpdf json: %w", err)
	}
	o := &pdfObjects{pages: j.Pages}
	if err := json.Unmarshal(j.QPDF[1], &o.objs); err != nil {
		return nil, fmt.Errorf("qpdf json: %w", err)
	}
	return o, nil
}

// content returns the page's content streams, decoded and joined as the
// PDF specification joins them.
func (d *pdfDoc) content(ctx context.Context, p qpdfPage) ([]byte, error) {
	if len(p.Contents) == 0 {
		return nil, fmt.Errorf("page %s has no content stream", p.Object)
	}
	args := []string{"--json=2", "--json-key=qpdf", "--json-stream-data=inline", "--decode-level=generalized"}
	for _, c := range p.Contents {
		n, g, ok := objectNumber(c)
		if !ok {
			return nil, fmt.Errorf("content stream %q", c)
		}
		args = append(args, "--json-object="+n+","+g)
	}
	out, err := d.qpdf(ctx, args...)
	if err != nil {
		return nil, err
	}
	var j qpdfJSON
	var objs map[string]qpdfObject
	if err := json.Unmarshal(out, &j); err != nil {
		return nil, fmt.Errorf("qpdf json: %w", err)
	}
	if err := json.Unmarshal(j.QPDF[1], &objs); err != nil {
		return nil, fmt.Errorf("qpdf json: %w", err)
	}
	var all []byte
	for _, c := range p.Contents {
		o := objs["obj:"+c]
		if o.Stream == nil || o.Stream.Data == nil {
			return nil, fmt.Errorf("content %s is not a stream", c)
		}
		if _, ok := pdfDict(nil, o.Stream.Dict)["/Filter"]; ok {
			return nil, fmt.Errorf("content %s: qpdf cannot decode its filter", c)
		}
		b, err := base64.StdEncoding.DecodeString(*o.Stream.Data)
		if err != nil {
			return nil, fmt.Errorf("content %s: %w", c, err)
		}
		all = append(append(all, b...), '\n')
	}
	return all, nil
}

// refPattern is an indirect reference in qpdf's JSON.
var refPattern = regexp.MustCompile(`^(\d+) (\d+) R$`)

// objectNumber splits "12 0 R" into its number and generation.
func objectNumber(ref string) (string, string, bool) {
	m := refPattern.FindStringSubmatch(ref)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// resolve follows an indirect reference to the object's value (a
// stream's dictionary); other values come back as they are.
func (o *pdfObjects) resolve(v json.RawMessage) json.RawMessage {
	for range 32 { // a chain of references, never a cycle
		var s string
		if json.Unmarshal(v, &s) != nil || !refPattern.MatchString(s) {
			return v
		}
		var obj qpdfObject
		if o == nil || json.Unmarshal(o.objs["obj:"+s], &obj) != nil {
			return nil
		}
		v = obj.Value
		if obj.Stream != nil {
			v = obj.Stream.Dict
		}
	}
	return nil
}

// pdfDict reads v (resolved) as a dictionary; nil when it is none.
func pdfDict(o *pdfObjects, v json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(o.resolve(v), &m)
	return m
}

// pdfArray reads v (resolved) as an array; nil when it is none.
func pdfArray(o *pdfObjects, v json.RawMessage) []json.RawMessage {
	var a []json.RawMessage
	_ = json.Unmarshal(o.resolve(v), &a)
	return a
}

// pdfName reads v (resolved) as a name ("/DeviceGray"); "" when it is none.
func pdfName(o *pdfObjects, v json.RawMessage) string {
	var s string
	if json.Unmarshal(o.resolve(v), &s) != nil || !strings.HasPrefix(s, "/") {
		return ""
	}
	return s
}

// pdfNumber reads v (resolved) as a number.
func pdfNumber(o *pdfObjects, v json.RawMessage) (float64, bool) {
	var f float64
	err := json.Unmarshal(o.resolve(v), &f)
	return f, err == nil
}

// shownAsStored reports whether page i shows its scanned image im as
// pdfimages writes it out: upright, whole, alone, and with its samples
// meaning what its file says. ppi is the image's own resolution, the
// higher of its two sides' (a page that is not is rendered at it, never
// above), also when it is not shown as stored.
func (d *pdfDoc) shownAsStored(ctx context.Context, i int, im pdfImage) (ppi float64, ok bool) {
	ppi = max(im.xppi, im.yppi)
	d.objsOnce.Do(func() { d.objs, d.objsErr = d.readObjects(ctx) })
	if d.objsErr != nil || i >= len(d.objs.pages) {
		return ppi, false // nothing tells how it is shown: as a viewer does
	}
	o, p := d.objs, d.objs.pages[i]
	name := ""
	for _, x := range p.Images {
		if x.Object == im.obj {
			name = x.Name
		}
	}
	page := pdfDict(o, json.RawMessage(strconv.Quote(p.Object)))
	if name == "" || page == nil || !imageAsStored(o, pdfDict(o, json.RawMessage(strconv.Quote(im.obj))), im) ||
		annotated(o, page) {
		return ppi, false
	}
	content, err := d.content(ctx, p)
	if err != nil {
		return ppi, false
	}
	gs := func(n string) bool { return plainGState(o, inherited(o, page, "/Resources"), n) }
	m, ok := pdfContentShows(content, name, gs, d.pages[i].crop)
	if sx, sy := math.Hypot(m[0], m[1]), math.Hypot(m[2], m[3]); sx > 0 && sy > 0 {
		x, y := float64(im.w)*72/sx, float64(im.h)*72/sy
		ppi = max(x, y)
		// Pixels not square (a fax of 204 x 98 dpi): as stored, the image
		// is the page stretched.
		ok = ok && math.Abs(x-y) <= 0.02*ppi
	}
	return ppi, ok
}

// inherited is a page's entry, or the nearest of its parents' (resources,
// boxes and rotation are inherited down the page tree).
func inherited(o *pdfObjects, page map[string]json.RawMessage, key string) json.RawMessage {
	for range 64 {
		if v, ok := page[key]; ok {
			return v
		}
		if page = pdfDict(o, page["/Parent"]); page == nil {
			break
		}
	}
	return nil
}

// imageAsStored reports whether pdfimages' output of the image dictionary
// dict means what the page shows: no mask of any kind (a colour-key /Mask
// hides colours and leaves no row of its own in `pdfimages -list`); and for
// a JPEG stream, a colour space the JPEG decoder's output stands for, no
// /ColorTransform overriding the file's own, and /Decode left at its
// default, except on a CMYK JPEG, which Go's decoder and OpenCV's invert
// (Adobe's convention) and which therefore must say [1 0 1 0 1 0 1 0].
func imageAsStored(o *pdfObjects, dict map[string]json.RawMessage, im pdfImage) bool {
	if dict == nil {
		return false
	}
	for _, k := range []string{"/Mask", "/SMask", "/ImageMask"} {
		if v, ok := dict[k]; ok && string(o.resolve(v)) != "null" && string(o.resolve(v)) != "false" {
			return false
		}
	}
	if im.enc != "jpeg" {
		return true
	}
	cs := pdfName(o, dict["/ColorSpace"])
	if a := pdfArray(o, dict["/ColorSpace"]); len(a) > 0 {
		cs = pdfName(o, a[0])
	}
	switch cs {
	case "/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/CalGray", "/CalRGB", "/ICCBased":
	default:
		return false
	}
	for _, p := range append([]json.RawMessage{dict["/DecodeParms"]}, pdfArray(o, dict["/DecodeParms"])...) {
		if _, ok := pdfDict(o, p)["/ColorTransform"]; ok {
			return false
		}
	}
	want := [2]float64{0, 1}
	if im.comps == 4 {
		want = [2]float64{1, 0}
	}
	dec := pdfArray(o, dict["/Decode"])
	if dec == nil {
		return im.comps != 4
	}
	if len(dec) != 2*im.comps {
		return false
	}
	for k, v := range dec {
		if f, ok := pdfNumber(o, v); !ok || f != want[k%2] {
			return false
		}
	}
	return true
}

// annotated reports whether the page has an annotation a viewer draws:
// any but a pop-up note's window, unless hidden (flag 2) or not for
// viewing (flag 32). A link's border is drawn too.
func annotated(o *pdfObjects, page map[string]json.RawMessage) bool {
	for _, a := range pdfArray(o, page["/Annots"]) {
		ad := pdfDict(o, a)
		if pdfName(o, ad["/Subtype"]) == "/Popup" {
			continue
		}
		if f, _ := pdfNumber(o, ad["/F"]); int(f)&(2|32) != 0 {
			continue
		}
		return true
	}
	return false
}

// plainGState reports whether the graphics state parameters named n in
// the resources change nothing of an image painted under them: no soft
// mask, full opacity, the normal blend mode, no transfer function.
func plainGState(o *pdfObjects, resources json.RawMessage, n string) bool {
	g := pdfDict(o, pdfDict(o, pdfDict(o, resources)["/ExtGState"])[n])
	if g == nil {
		return false
	}
	if v, ok := g["/SMask"]; ok && pdfName(o, v) != "/None" {
		return false
	}
	for _, k := range []string{"/CA", "/ca"} {
		if v, ok := g[k]; ok {
			if f, _ := pdfNumber(o, v); f < 1 {
				return false
			}
		}
	}
	if v, ok := g["/BM"]; ok {
		bm := pdfName(o, v)
		if a := pdfArray(o, v); len(a) > 0 {
			bm = pdfName(o, a[0])
		}
		if bm != "/Normal" && bm != "/Compatible" {
			return false
		}
	}
	for _, k := range []string{"/TR", "/TR2"} {
		if v, ok := g[k]; ok && pdfName(o, v) != "/Identity" && pdfName(o, v) != "/Default" {
			return false
		}
	}
	return true
}
