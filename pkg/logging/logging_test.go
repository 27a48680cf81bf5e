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

// TestColorizeWritesRawEscapes: LOGURU_COLORIZE=true gives text lines
// whose level is coloured by raw escape sequences; slog's text handler
// used to quote them, and the line read level="\x1b[31mERROR\x1b[0m", the
// backslashes printed and no colour shown. Only the record's own level
// is coloured, not a value that looks like one.
func TestColorizeWritesRawEscapes(t *testing.T) {
	var buf bytes.Buffer
	log := New(&buf, "INFO", true, "gateway")
	log.Error("boom", "note", "level=INFO")
	log.Warn("careful", "level", 9)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines: %q", len(lines), buf.String())
	}
	for i, want := range []string{"level=\x1b[31mERROR\x1b[0m msg=boom role=gateway note=\"level=INFO\"",
		"level=\x1b[33mWARNING\x1b[0m msg=careful role=gateway attr_level=9"} {
		if !strings.HasPrefix(lines[i], "time=") || !strings.HasSuffix(lines[i], want) {
			t.Errorf("line %q, want time=... %q", lines[i], want)
		}
	}
	if strings.Contains(buf.String(), `\x1b`) || strings.Count(buf.String(), "\x1b[") != 4 {
		t.Errorf("escapes quoted or misplaced: %q", buf.String())
	}
}

// TestJSONNeverColoured: without LOGURU_COLORIZE the JSON lines carry no
// escape sequence, raw or encoded.
func TestJSONNeverColoured(t *testing.T) {
	var buf bytes.Buffer
	New(&buf, "TRACE", false, "gateway").Error("boom")
	if s := buf.String(); strings.Contains(s, "\x1b") || strings.Contains(s, `\u001b`) || !strings.Contains(s, `"level":"ERROR"`) {
		t.Errorf("JSON line %q", s)
	}
}

// TestColorLevelLeavesOtherLinesAlone: a line that is not the text
// handler's (no level first) passes unchanged.
func TestColorLevelLeavesOtherLinesAlone(t *testing.T) {
	for _, line := range []string{"msg=x level=ERROR\n", "time=now\n", "level=LOUD msg=x\n", ""} {
		var buf bytes.Buffer
		n, err := colorWriter{&buf}.Write([]byte(line))
		if err != nil || n != len(line) || buf.String() != line {
			t.Errorf("%q written as %q (%d, %v)", line, buf.String(), n, err)
		}
	}
	var buf bytes.Buffer
	if n, err := (colorWriter{&buf}).Write([]byte("level=DEBUG\n")); err != nil || n != 12 || buf.String() != "level=\x1b[34mDEBUG\x1b[0m\n" {
		t.Errorf("written as %q (%d, %v)", buf.String(), n, err)
	}
}
