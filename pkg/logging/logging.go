// Package logging builds the structured logger of every role. The level
// and colour come from LOGURU_LEVEL and LOGURU_COLORIZE, names kept from the
// reference service so existing env files keep working.
package logging

import (
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

// New returns a logger writing to w: JSON lines, or coloured text when
// colorize is true. role is attached to every record.
func New(w io.Writer, level string, colorize bool, role string) *slog.Logger {
	opts := &slog.HandlerOptions{Level: ParseLevel(level), ReplaceAttr: replaceLevel(colorize)}
	var h slog.Handler
	if colorize {
		h = slog.NewTextHandler(w, opts)
	} else {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(h).With("role", role)
}

// replaceLevel writes the record's level by loguru's names. An attribute
// a caller names "level" (a queue's priority level) is not the record's:
// kept as it was, the JSON object would carry "level" twice, and a log
// shipper (Loki, jq, Elastic) keeps the last one, filing a WARNING under
// level 9. It is written as "attr_level" instead.
func replaceLevel(colorize bool) func([]string, slog.Attr) slog.Attr {
	return func(groups []string, a slog.Attr) slog.Attr {
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
		name, color := levelName(lvl)
		if colorize {
			name = color + name + "\x1b[0m"
		}
		return slog.String(slog.LevelKey, name)
	}
}

func levelName(l slog.Level) (string, string) {
	switch {
	case l < slog.LevelDebug:
		return "TRACE", "\x1b[36m"
	case l < slog.LevelInfo:
		return "DEBUG", "\x1b[34m"
	case l < LevelSuccess:
		return "INFO", "\x1b[1m"
	case l < slog.LevelWarn:
		return "SUCCESS", "\x1b[32m"
	case l < slog.LevelError:
		return "WARNING", "\x1b[33m"
	case l < LevelCritical:
		return "ERROR", "\x1b[31m"
	default:
		return "CRITICAL", "\x1b[41m"
	}
}
