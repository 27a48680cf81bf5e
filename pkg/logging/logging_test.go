package logging

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestLevels(t *testing.T) {
	tests := []struct {
		level   string
		debugOK bool
		infoOK  bool
	}{
		{"DEBUG", true, true},
		{"info", false, true},
		{"ERROR", false, false},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		log := New(&buf, tc.level, false, "test")
		log.Debug("d")
		log.Info("i")
		out := buf.String()
		if strings.Contains(out, `"msg":"d"`) != tc.debugOK || strings.Contains(out, `"msg":"i"`) != tc.infoOK {
			t.Errorf("%s: got %s", tc.level, out)
		}
	}
}

func TestJSONRecordHasRoleAndLevelName(t *testing.T) {
	var buf bytes.Buffer
	New(&buf, "INFO", false, "gateway").Warn("careful")
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["role"] != "gateway" || rec["level"] != "WARNING" {
		t.Errorf("record %v", rec)
	}
}

// TestAttributeNamedLevelKeepsTheRecordsLevel: the task runner logged its
// priority level as "level", and the JSON line read
// {"level":"WARNING",...,"level":9}: decoded, the record's level was 9.
func TestAttributeNamedLevelKeepsTheRecordsLevel(t *testing.T) {
	var buf bytes.Buffer
	New(&buf, "INFO", false, "gateway").Warn("task fetch unanswered, asking again", "level", 9)
	if n := strings.Count(buf.String(), `"level":`); n != 1 {
		t.Errorf("%d \"level\" keys in %s", n, buf.String())
	}
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatal(err)
	}
	if rec["level"] != "WARNING" {
		t.Errorf("level decoded as %v, want WARNING: %s", rec["level"], buf.String())
	}
}
