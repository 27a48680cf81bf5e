package synth

import (
	"bytes"
	"context"
	"fmt"
)

// pdfPageLong is the longer side of a PDF page image: A4 at 150 dpi.
const pdfPageLong = 1754

// ScanPages generates the 1..maxPages scanner-style pages of PDF i.
func (g *Generator) ScanPages(ctx context.Context, i, maxPages int) ([]*Scene, error) {
	if maxPages < 1 {
		maxPages = 1
	}
	r := NewRand(g.cfg.Seed, uint64(i), 0x9DF)
	n := r.IntRange(1, maxPages)
	var out []*Scene
	for p := 0; p < n; p++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pr := r.Child(uint64(p))
		W, H := g.sceneSize(pr, true, pdfPageLong)
		sc, err := g.build(pr, i*maxPages+p, true, W, H)
		if err != nil {
			return nil, err
		}
		for k := range sc.Docs {
			sc.Docs[k].Page = p + 1
		}
		out = append(out, sc)
	}
	return out, nil
}

// BuildPDF writes a PDF with one full-page JPEG image per page; sizes are
// the images' pixel sizes and dpi their resolution.
func BuildPDF(jpegs [][]byte, sizes [][2]int, dpi float64) ([]byte, error) {
	if len(jpegs) != len(sizes) || len(jpegs) == 0 {
		return nil, fmt.Errorf("synth: pdf needs as many sizes as pages, and at least one page")
	}
	var b bytes.Buffer
	var offs []int
	obj := func(body func()) {
		offs = append(offs, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n", len(offs))
		body()
		b.WriteString("\nendobj\n")
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	n := len(jpegs)
	obj(func() { b.WriteString("<< /Type /Catalog /Pages 2 0 R >>") })
	obj(func() {
		b.WriteString("<< /Type /Pages /Kids [")
		for p := 0; p < n; p++ {
			fmt.Fprintf(&b, "%d 0 R ", 3+3*p)
		}
		fmt.Fprintf(&b, "] /Count %d >>", n)
	})
	for p := 0; p < n; p++ {
		w := float64(sizes[p][0]) * 72 / dpi
		h := float64(sizes[p][1]) * 72 / dpi
		page, content, img := 3+3*p, 4+3*p, 5+3*p
		_ = page
		obj(func() {
			fmt.Fprintf(&b, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", w, h, img, content)
		})
		cs := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", w, h)
		obj(func() { fmt.Fprintf(&b, "<< /Length %d >>\nstream\n%s\nendstream", len(cs), cs) })
		obj(func() {
			fmt.Fprintf(&b, "<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n",
				sizes[p][0], sizes[p][1], len(jpegs[p]))
			b.Write(jpegs[p])
			b.WriteString("\nendstream")
		})
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs)+1, xref)
	return b.Bytes(), nil
}
