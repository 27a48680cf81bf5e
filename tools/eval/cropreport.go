package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"docsuite/pkg/cpucheck"
)

// Markers delimit the generated part of the cropper report; text outside
// them (the hand-written analysis of the misses) is kept when the report
// is regenerated.
const (
	beginMeasured = "<!-- BEGIN measured by tools/eval -crop: regenerated, do not edit -->"
	endMeasured   = "<!-- END measured -->"
)

// writeCropReport writes the sets' tables and plots into out between the
// markers, creating the file when needed.
func writeCropReport(out string, sets []*cropSet, note string) error {
	base := strings.TrimSuffix(out, filepath.Ext(out))
	var b strings.Builder
	b.WriteString(beginMeasured + "\n\n")
	b.WriteString(note + "\n")
	for _, s := range sets {
		slug := strings.NewReplacer(" ", "-", ",", "").Replace(strings.ToLower(s.Name))
		plot := base + "-" + slug + ".png"
		if err := s.plotIoU(plot); err != nil {
			return fmt.Errorf("plot %s: %w", plot, err)
		}
		s.markdown(&b, filepath.Base(plot))
	}
	b.WriteString(endMeasured + "\n")
	text := "# Cropper accuracy\n\n" + b.String()
	if old, err := os.ReadFile(out); err == nil {
		o := string(old)
		i, j := strings.Index(o, beginMeasured), strings.Index(o, endMeasured)
		if i >= 0 && j > i {
			text = o[:i] + b.String() + o[j+len(endMeasured)+1:]
		}
	}
	return os.WriteFile(out, []byte(text), 0o644)
}

func (s *cropSet) markdown(b *strings.Builder, plot string) {
	r0 := s.Results[0]
	fmt.Fprintf(b, "\n### %s\n\n%d files, %d pages, %d labelled documents.", s.Name, r0.Files, r0.Pages, r0.Truth)
	if r0.LaterPages > 0 {
		fmt.Fprintf(b, " The labelled documents lie on each file's first page: on the %d later pages of multi-page files the first item (the page itself, or its first document) is set aside and further items count as spurious.", r0.LaterPages)
	}
	b.WriteString("\n\n")
	b.WriteString("| measure |")
	for _, r := range s.Results {
		b.WriteString(" " + r.Name + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(s.Results)) + "\n")
	row := func(name string, f func(r *cropResults) string) {
		b.WriteString("| " + name + " |")
		for _, r := range s.Results {
			b.WriteString(" " + f(r) + " |")
		}
		b.WriteString("\n")
	}
	row("documents found", func(r *cropResults) string { return pct(r.Found, r.Truth) })
	row("95 % interval", func(r *cropResults) string { return shareInterval(r.Found, r.Truth) })
	row("documents missed", func(r *cropResults) string { return fmt.Sprint(r.Missed) })
	row("spurious items (share of items)", func(r *cropResults) string { return pct(r.Spurious, r.Predictions) })
	row("95 % interval", func(r *cropResults) string { return shareInterval(r.Spurious, r.Predictions) })
	row("mean quad IoU of found documents (with corners)", func(r *cropResults) string {
		if len(r.IoUs) == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.3f (%d)", meanOf(r.IoUs), len(r.IoUs))
	})
	row("95 % interval, files resampled", func(r *cropResults) string {
		groups := groupByFile(len(r.IoUs), func(i int) string { return r.IoUFiles[i] }, func(int) bool { return true })
		return groupInterval(groups, meanAt(func(i int) float64 { return r.IoUs[i] }), 3)
	})
	row("found with IoU >= 0.9", func(r *cropResults) string {
		n := 0
		for _, v := range r.IoUs {
			if v >= 0.9 {
				n++
			}
		}
		return pct(n, len(r.IoUs))
	})
	row("time per page, median / mean / p95 (one core of "+cpucheck.Host().Describe(runtime.NumCPU())+")", func(r *cropResults) string {
		tot := 0.0
		for _, t := range r.Times {
			tot += float64(t.Microseconds()) / 1000
		}
		return fmt.Sprintf("%.1f / %.1f / %.1f ms", quantileMS(r.Times, 0.5), tot/float64(max(1, len(r.Times))), quantileMS(r.Times, 0.95))
	})
	row("files not decoded or failed", func(r *cropResults) string { return fmt.Sprint(r.Failed) })
	fmt.Fprintf(b, "\n%s\n", intervalNote)
	fmt.Fprintf(b, "\n![share of documents found at or above each IoU](%s)\n", plot)
	for _, r := range s.Results {
		if r.Name == "neural, no refinement" || r.Name == "neural, enclosing quads" {
			continue
		}
		fmt.Fprintf(b, "\n<details><summary>%s: %d files with a miss or a spurious item</summary>\n\n", r.Name, len(r.Notes))
		for _, n := range r.Notes {
			b.WriteString("- " + n + "\n")
		}
		b.WriteString("\n</details>\n")
		if len(r.Loose) == 0 || r.Name != s.Results[0].Name {
			continue
		}
		fmt.Fprintf(b, "\n<details><summary>%s: %d documents found with IoU under %.1f</summary>\n\n", r.Name, len(r.Loose), looseIoU)
		for _, n := range r.Loose {
			b.WriteString("- " + n + "\n")
		}
		b.WriteString("\n</details>\n")
	}
}

// plotIoU draws, per cropper, the share of labelled documents (with
// corners) found at or above each IoU from 0.5 to 1.
func (s *cropSet) plotIoU(path string) error {
	const w, h, pad = 520, 340, 44
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	grey := color.RGBA{200, 200, 200, 255}
	for i := 0; i <= 10; i++ {
		x := pad + i*(w-2*pad)/10
		y := h - pad - i*(h-2*pad)/10
		for t := pad; t <= h-pad; t++ {
			img.Set(x, t, grey)
		}
		for t := pad; t <= w-pad; t++ {
			img.Set(t, y, grey)
		}
	}
	colours := []color.RGBA{{31, 119, 180, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}}
	for k, r := range s.Results {
		truth := r.Found + r.Missed
		if len(r.IoUs) == 0 || truth == 0 {
			continue
		}
		c := colours[k%len(colours)]
		for px := 0; px <= w-2*pad; px++ {
			thr := 0.5 + 0.5*float64(px)/float64(w-2*pad)
			n := 0
			for _, v := range r.IoUs {
				if v >= thr {
					n++
				}
			}
			// Share of documents with corners: misses count as IoU 0.
			share := float64(n) / float64(len(r.IoUs)+missedWithQuads(r))
			y := h - pad - int(share*float64(h-2*pad))
			for d := -1; d <= 1; d++ {
				img.Set(pad+px, y+d, c)
			}
		}
		draw.Draw(img, image.Rect(w-pad-170, pad+8+16*k, w-pad-158, pad+18+16*k), image.NewUniform(c), image.Point{}, draw.Src)
		label(img, w-pad-152, pad+18+16*k, r.Name)
	}
	label(img, pad, 20, s.Name+": share of documents found at IoU >= x")
	label(img, pad, h-12, "IoU 0.5 .. 1.0 (grid 0.05); share 0 .. 1 (grid 0.1)")
	return save(path, img)
}

// missedWithQuads counts the misses among documents that have corners
// (the IoU plot's denominator); count-only misses are not in it.
func missedWithQuads(r *cropResults) int { return r.missedQuads }
