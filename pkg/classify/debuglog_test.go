package classify

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

// TestDebugLogExplainsTheWords checks what an admin sees at LOGURU_LEVEL
// DEBUG: for a crop whose printed words were read, one record with the
// picture's leading types and the counts of words read and unknown, and
// nothing at all above DEBUG.
func TestDebugLogExplainsTheWords(t *testing.T) {
	crops := heldOutCrops(t, 1)
	if len(crops) == 0 {
		t.Fatal("no crops")
	}
	words := []string{"ПАСПОРТ", "РОССИЙСКАЯ", "ФЕДЕРАЦИЯ", "ТЕЛЕСКОП", "ВЕЛОСИПЕД"}
	for _, tc := range []struct {
		name  string
		level slog.Level
		want  bool
	}{
		{"debug", slog.LevelDebug, true},
		{"info", slog.LevelInfo, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: tc.level}))
			c, err := Open(Options{Dir: "models", Log: log})
			if err != nil {
				t.Skipf("model not available (make models): %v", err)
			}
			defer func() { _ = c.Close() }()
			buf.Reset() // the model's load is logged at INFO
			out, err := c.Outputs(context.Background(), crops[0].Img)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ClassifyOutputs(out, nil, Evidence{Words: words, WordsRead: true}); err != nil {
				t.Fatal(err)
			}
			var rec struct {
				Msg     string `json:"msg"`
				Picture string `json:"picture"`
				Read    int    `json:"read"`
				Unknown int    `json:"unknown"`
			}
			found := false
			for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				if line == "" || json.Unmarshal([]byte(line), &rec) != nil || rec.Msg != "classify: printed words" {
					continue
				}
				found = true
				if rec.Read != len(words) || rec.Unknown != 2 {
					t.Errorf("read %d, unknown %d; want %d and 2", rec.Read, rec.Unknown, len(words))
				}
				if n := len(strings.Fields(rec.Picture)); n != 3 || !strings.Contains(rec.Picture, "=") {
					t.Errorf("picture %q, want the three leading types with their probabilities", rec.Picture)
				}
			}
			if found != tc.want {
				t.Errorf("printed-words record logged: %t, want %t (log: %s)", found, tc.want, buf.String())
			}
		})
	}
}
