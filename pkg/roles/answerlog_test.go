package roles

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/stages"
)

// TestAnswerLogWordsOnlyWhenAsked writes the classifier's DEBUG line as
// the role does: the printed words read on a crop (the document's own
// text: names, numbers) appear only with LOG_WORDS=true, and never
// invented when none were read.
func TestAnswerLogWordsOnlyWhenAsked(t *testing.T) {
	read := classify.Evidence{TextLines: 7, Words: []string{"ХАЛАБУДИНА", "ЮЛИЯ", "МОНЧЕГОРСК"}, WordsRead: true}
	cases := []struct {
		name      string
		ev        classify.Evidence
		logWords  bool
		wantWords bool
	}{
		{"words read, not asked", read, false, false},
		{"words read, asked", read, true, true},
		{"no words read, asked", classify.Evidence{TextLines: 2}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
			reply := stages.ClassifyReply{Type: "passport_main", Confidence: 0.82}
			log.DebugContext(context.Background(), "classify: answer", answerAttrs("crops/1", reply, c.ev, "none", c.logWords)...)
			line := buf.String()
			if !strings.Contains(line, "type=passport_main") || !strings.Contains(line, "crop=crops/1") {
				t.Fatalf("answer missing from %q", line)
			}
			if got := strings.Contains(line, "words="); got != c.wantWords {
				t.Errorf("words logged %v, want %v: %q", got, c.wantWords, line)
			}
			if c.wantWords && !strings.Contains(line, "ХАЛАБУДИНА ЮЛИЯ МОНЧЕГОРСК") {
				t.Errorf("words not as read: %q", line)
			}
		})
	}
}
