// Package logging builds the structured logger of every role. The level
// and colour come from LOGURU_LEVEL and LOGURU_COLORIZE, names kept from the
// reference service so existing env files keep working.
package logging

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
)

// Extra levels of loguru mapped onto slog's scale.
const (
	LevelTrace    = slog.Level(-8)
	LevelSuccess  = slog.Level(2)
	LevelCritical = slog.Level(12)
)

// ParseLevel maps a loguru level name to a slog level; unknown names give INFO.
func ParseLevel(s string) slog.Level {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "TRACE":
		return LevelTrace
	case "DEBUG":
		return slog.LevelDebug
	case "SUCCESS":
		return LevelSuccess
	case "WARNING", "WARN":
		return slog.LevelWarn
	case "ERROR":
		return slog.LevelError
	case "CRITICAL":
		return LevelCritical
	default:
		return slog.LevelInfo
	}
}

// New returns a logger writing to w: JSON lines, or, when colorize is
// true (LOGURU_COLORIZE), human-readable text lines (key=value) whose
// level is coloured by ANSI escape sequences, written as raw bytes for a
// terminal (or less -R) to show. JSON lines never carry colour. role is
// attached to every record.
func New(w io.Writer, level string, colorize bool, role string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: ParseLevel(level), ReplaceAttr: replaceLevel}
	var h slog.Handler
	if colorize {
		h = slog.NewTextHandler(colorWriter{w}, opts)
	} else {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(h).With("role", role)
}

// colorWriter colours the level of the lines slog's text handler writes.
// The handler itself cannot: it quotes a value holding control
// characters, so a level carrying its escape sequences was written as
// level="\x1b[31mERROR\x1b[0m", backslashes and all, with no colour. The
// handler writes each record in one Write call, beginning with time=...
// (when the record has a time) and level=NAME, so the sequences are put
// around NAME here, as raw bytes.
type colorWriter struct{ w io.Writer }

// Write writes p with its record's level coloured (see colorLevel).
func (c colorWriter) Write(p []byte) (int, error) {
	if line, ok := colorLevel(p); ok {
		if _, err := c.w.Write(line); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.w.Write(p)
}

// colorLevel returns line with the level its text handler wrote in its
// colour; false for a line that does not begin as the handler's do, or
// names no level of loguru's.
func colorLevel(line []byte) ([]byte, bool) {
	start := 0
	if bytes.HasPrefix(line, []byte("time=")) {
		i := bytes.IndexByte(line, ' ')
		if i < 0 {
			return nil, false
		}
		start = i + 1
	}
	const key = "level="
	if !bytes.HasPrefix(line[start:], []byte(key)) {
		return nil, false
	}
	from := start + len(key)
	to := len(line)
	if i := bytes.IndexAny(line[from:], " \n"); i >= 0 {
		to = from + i
	}
	color, ok := levelColors[string(line[from:to])]
	if !ok {
		return nil, false
	}
	out := make([]byte, 0, len(line)+len(color)+len(colorReset))
	out = append(out, line[:from]...)
	out = append(out, color...)
	out = append(out, line[from:to]...)
	out = append(out, colorReset...)
	return append(out, line[to:]...), true
}

// colorReset ends a coloured span.
const colorReset = "\x1b[0m"

// levelColors are the ANSI colours of loguru's level names.
var levelColors = map[string]string{
	"TRACE":    "\x1b[36m",
	"DEBUG":    "\x1b[34m",
	"INFO":     "\x1b[1m",
	"SUCCESS":  "\x1b[32m",
	"WARNING":  "\x1b[33m",
	"ERROR":    "\x1b[31m",
	"CRITICAL": "\x1b[41m",
}

// replaceLevel writes the record's level by loguru's names. An attribute
// a caller names "level" (a queue's priority level) is not the record's:
// kept as it was, the JSON object would carry "level" twice, and a log
// shipper (Loki, jq, Elastic) keeps the last one, filing a WARNING under
// level 9. It is written as "attr_level" instead.
func replaceLevel(groups []string, a slog.Attr) slog.Attr {
	if a.Key != slog.LevelKey {
		return a
	}
	lvl, ok := a.Value.Any().(slog.Level)
	if !ok || len(groups) > 0 {
		if len(groups) == 0 {
			a.Key = "attr_" + a.Key
		}
		return a
	}
	return slog.String(slog.LevelKey, levelName(lvl))
}

func levelName(l slog.Level) string {
	switch {
	case l < slog.LevelDebug:
		return "TRACE"
	case l < slog.LevelInfo:
		return "DEBUG"
	case l < LevelSuccess:
		return "INFO"
	case l < slog.LevelWarn:
		return "SUCCESS"
	case l < slog.LevelError:
		return "WARNING"
	case l < LevelCritical:
		return "ERROR"
	default:
		return "CRITICAL"
	}
}
