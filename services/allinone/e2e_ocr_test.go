package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/testutil"
)

// TestFulltextReadsEveryPage sends a two-page PDF of printed text, the
// second page scanned upside down, to /pipelines/run/fulltext and checks
// the text of each page and the turn that made it upright, and that
// recognize invents no fields for documents that are not passports.
func TestFulltextReadsEveryPage(t *testing.T) {
	testutil.Need(t, "convert", "img2pdf")
	dir := t.TempDir()
	pageLines := [][]string{{"ПАСПОРТ ГРАЖДАНИНА", "HELLO WORLD 2026"},
		{"Санкт-Петербург", "SECOND PAGE 42", "Место рождения город Екатеринбург", "Дата выдачи 12.05.2019 код 660-001"}}
	for i, lines := range pageLines {
		name := []string{"p1.png", "p2.png"}[i]
		args := []string{"-size", "1000x560", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "40", "-fill", "black"}
		for j, l := range lines {
			args = append(args, "-annotate", fmt.Sprintf("+50+%d", 120+j*120), l)
		}
		if i == 1 {
			args = append(args, "-rotate", "180")
		}
		testutil.Run(t, dir, "convert", append(args, "-units", "PixelsPerInch", "-density", "150", name)...)
	}
	testutil.Run(t, dir, "img2pdf", "p1.png", "p2.png", "-o", "text.pdf")
	data, err := os.ReadFile(filepath.Join(dir, "text.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/fulltext?task_tags=batch-7", "image", data)
	if status != http.StatusOK {
		t.Fatalf("fulltext: %d %v", status, body)
	}
	if body["pages_count"] != 2.0 || body["page_count"] != 2.0 {
		t.Fatalf("page counts %v %v", body["pages_count"], body["page_count"])
	}
	if tags, _ := body["task_tags"].([]any); len(tags) != 1 || tags[0] != "batch-7" {
		t.Errorf("task_tags %v, want the request's [batch-7]", body["task_tags"])
	}
	pages, _ := body["pages"].([]any)
	if len(pages) != 2 {
		t.Fatalf("%d pages", len(pages))
	}
	want := [][]string{{"ПАСПОРТ", "ГРАЖДАНИНА", "HELLO", "WORLD", "2026"}, {"Санкт-Петербург", "SECOND", "PAGE", "42", "Екатеринбург", "12.05.2019"}}
	for i, p := range pages {
		pg := p.(map[string]any)
		text, _ := pg["text"].(string)
		for _, w := range want[i] {
			if !strings.Contains(text, w) {
				t.Errorf("page %d text %q lacks %q", i+1, text, w)
			}
		}
		lines, _ := pg["lines"].([]any)
		if pg["page"] != float64(i+1) || len(lines) != len(pageLines[i]) {
			t.Errorf("page %v: %d lines", pg["page"], len(lines))
		}
		if want := float64(2 * i); pg["rotation"] != want {
			t.Errorf("page %v: rotation %v, want %v", pg["page"], pg["rotation"], want)
		}
	}
	// Text pages are no passport: recognize lists what it found with no
	// invented fields.
	status, body = in.post(t, "/pipelines/run/recognize", "image", data)
	items, _ := body["items"].([]any)
	if status != http.StatusOK || body["docs_count"] != float64(len(items)) || body["page_count"] != 2.0 {
		t.Errorf("recognize: %d %v", status, body)
	}
	for _, it := range items {
		item := it.(map[string]any)
		if fields, _ := item["fields"].(map[string]any); item["doc_type"] != "passport_main" && len(fields) != 0 {
			t.Errorf("recognize invented fields for %v: %v", item["doc_type"], fields)
		}
	}
	// The deployment's page limit holds for OCR too.
	limited := startAllInOne(t, map[string]string{"MAX_PAGES": "1"})
	status, body = limited.post(t, "/pipelines/run/fulltext", "image", data)
	if status != http.StatusUnprocessableEntity || body["errno"] != 17.0 {
		t.Errorf("fulltext over MAX_PAGES: %d %v", status, body)
	}
}

// TestFulltextReadsDocumentsOnAPhoto sends a photo of a card lying on its
// side at a slant on a grey table, a note written beside it, to
// /pipelines/run/fulltext: the cropper cuts the card out, its text comes
// back upright and in order, its corners on the page, and the note is
// read as the rest of the page; with mode=classify_only (no cutting) the
// page is read whole.
func TestFulltextReadsDocumentsOnAPhoto(t *testing.T) {
	dir := t.TempDir()
	testutil.CardPhoto(t, dir, "photo.jpg", "#8f8a82")
	data, err := os.ReadFile(filepath.Join(dir, "photo.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/fulltext", "image", data)
	if status != http.StatusOK {
		t.Fatalf("fulltext: %d %v", status, body)
	}
	pages, _ := body["pages"].([]any)
	if len(pages) != 1 {
		t.Fatalf("%d pages", len(pages))
	}
	pg := pages[0].(map[string]any)
	text, _ := pg["text"].(string)
	for _, w := range []string{"ПАСПОРТ", "Екатеринбург", "12.05.2019", "Петровна", "Копия"} {
		if !strings.Contains(text, w) {
			t.Errorf("text %q lacks %q", text, w)
		}
	}
	if !strings.Contains(text, "Место рождения Екатеринбург\nДата выдачи 12.05.2019") {
		t.Errorf("the card's rows not in reading order: %q", text)
	}
	docs, _ := pg["documents"].([]any)
	if len(docs) != 1 {
		t.Fatalf("documents %v, want the card", pg["documents"])
	}
	d := docs[0].(map[string]any)
	if d["rotation"] != 3.0 {
		t.Errorf("card turned %v, want 3", d["rotation"])
	}
	// Upright, the card's top-left corner is the top-right one of the card
	// as it lies (1150, 340); the cropper finds it within a few pixels.
	coords, _ := d["coords"].([]any)
	if len(coords) != 4 {
		t.Fatalf("card coords %v", d["coords"])
	}
	if tl := coords[0].([]any); abs(tl[0].(float64)-1150) > 25 || abs(tl[1].(float64)-340) > 25 {
		t.Errorf("card's upright top-left corner %v, want near [1150 340]", tl)
	}
	for _, l := range pg["lines"].([]any) {
		line := l.(map[string]any)
		lt, _ := line["text"].(string)
		switch {
		case strings.Contains(lt, "Екатеринбург") && line["document"] != 1.0:
			t.Errorf("line %q on document %v, want 1", lt, line["document"])
		case strings.Contains(lt, "Копия") && line["document"] != 0.0:
			t.Errorf("note %q on document %v, want 0", lt, line["document"])
		}
	}
	status, body = in.post(t, "/pipelines/run/fulltext?mode=classify_only", "image", data)
	if status != http.StatusOK {
		t.Fatalf("fulltext, classify_only: %d %v", status, body)
	}
	if pg := body["pages"].([]any)[0].(map[string]any); len(pg["documents"].([]any)) != 0 {
		t.Errorf("classify_only cut the page: %v", pg["documents"])
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestAsyncFulltextShowsPages sends a three-page PDF to
// /pipelines/run/fulltext with async=true and polls /result: while the
// task runs its progress counts the file's pages as the OCR worker reads
// them, and the result reads all three.
func TestAsyncFulltextShowsPages(t *testing.T) {
	testutil.Need(t, "convert", "img2pdf")
	dir := t.TempDir()
	var names []string
	for i, l := range []string{"ПЕРВАЯ СТРАНИЦА 2026", "ВТОРАЯ СТРАНИЦА 2027", "ТРЕТЬЯ СТРАНИЦА 2028"} {
		name := fmt.Sprintf("p%d.png", i+1)
		args := []string{"-size", "1240x1754", "xc:white", "-font", "DejaVu-Sans", "-pointsize", "40", "-fill", "black"}
		for j := 0; j < 12; j++ {
			args = append(args, "-annotate", fmt.Sprintf("+100+%d", 150+j*120), l)
		}
		testutil.Run(t, dir, "convert", append(args, "-units", "PixelsPerInch", "-density", "150", name)...)
		names = append(names, name)
	}
	testutil.Run(t, dir, "img2pdf", append(names, "-o", "three.pdf")...)
	data, err := os.ReadFile(filepath.Join(dir, "three.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	in := startAllInOne(t, nil)
	status, body := in.post(t, "/pipelines/run/fulltext?async=true", "image", data)
	id := fmt.Sprint(body["task_id"])
	if status != http.StatusOK || !hex32.MatchString(id) {
		t.Fatalf("accept: %d %v", status, body)
	}
	var partial []string
	var final map[string]any
	testutil.Eventually(t, 120*time.Second, func() error {
		s, b := in.get(t, "/result/"+id)
		switch s {
		case http.StatusAccepted:
			p, _ := b["progress"].(map[string]any)
			if done, total := p["pages_done"], p["pages_total"]; total == 3.0 && done.(float64) < 3 {
				partial = append(partial, fmt.Sprintf("%v/%v", done, total))
			}
			return fmt.Errorf("not done")
		case http.StatusOK:
			final = b
			return nil
		}
		t.Fatalf("result status %d: %v", s, b)
		return nil
	})
	if len(partial) == 0 {
		t.Error("no poll saw the three pages counted while they were read")
	}
	text, _ := final["text"].(string)
	for _, w := range []string{"ПЕРВАЯ", "ВТОРАЯ", "ТРЕТЬЯ"} {
		if !strings.Contains(text, w) {
			t.Errorf("result text lacks %q: %q", w, text)
		}
	}
}
