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
