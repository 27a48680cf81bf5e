package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"docsuite/pkg/synth"
)

// pdfJob writes doc_NNNNNN.pdf (1..max-pages scanner-style pages, one
// JPEG image per page at 150 dpi) and doc_NNNNNN.json whose documents
// carry their page number; quads are in the pixels of each page's image
// (the page rasterised at 150 dpi, or its raw embedded image).
func pdfJob(g *synth.Generator, o *options) func(context.Context, int) error {
	return func(ctx context.Context, i int) error {
		pages, err := g.ScanPages(ctx, i, o.maxPages)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("doc_%06d", i)
		var imgs [][]byte
		rec := synth.Record{File: name + ".pdf", Documents: []synth.DocRecord{}}
		for pi, sc := range pages {
			jb, err := synth.EncodeJPEG(sc.Img, sc.Quality)
			if err != nil {
				return err
			}
			imgs = append(imgs, jb)
			r := sc.Record(name + ".pdf")
			if pi == 0 {
				rec.Width, rec.Height = r.Width, r.Height
			}
			for _, d := range r.Documents {
				d.Page = pi + 1
				rec.Documents = append(rec.Documents, d)
			}
		}
		pdf, err := synth.BuildPDF(imgs, pagesSizes(pages), 150)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, name+".pdf"), pdf, 0o644); err != nil {
			return fmt.Errorf("write pdf: %w", err)
		}
		return writeJSON(filepath.Join(o.out, name+".json"), rec)
	}
}

func pagesSizes(pages []*synth.Scene) [][2]int {
	out := make([][2]int, len(pages))
	for i, p := range pages {
		out[i] = [2]int{p.Img.Rect.Dx(), p.Img.Rect.Dy()}
	}
	return out
}
