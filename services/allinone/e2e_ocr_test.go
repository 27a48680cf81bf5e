package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	status, body := in.post(t, "/pipelines/run/fulltext", "image", data)
	if status != http.StatusOK {
		t.Fatalf("fulltext: %d %v", status, body)
	}
	if body["pages_count"] != 2.0 || body["page_count"] != 2.0 {
		t.Fatalf("page counts %v %v", body["pages_count"], body["page_count"])
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
