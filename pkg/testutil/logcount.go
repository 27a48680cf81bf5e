package testutil

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
)

// LogCounter is a slog handler that counts the records whose message
// holds Substring, whatever their level, and drops every record: a test
// asserts that a role logged something (a page waiting for memory) as
// often as it should.
type LogCounter struct {
	Substring string
	n         atomic.Int32
}

// Count is how many records so far held Substring.
func (h *LogCounter) Count() int { return int(h.n.Load()) }

// Enabled implements slog.Handler: every level is counted.
func (h *LogCounter) Enabled(context.Context, slog.Level) bool { return true }

// Handle implements slog.Handler.
func (h *LogCounter) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, h.Substring) {
		h.n.Add(1)
	}
	return nil
}

// WithAttrs implements slog.Handler; the count is shared.
func (h *LogCounter) WithAttrs([]slog.Attr) slog.Handler { return h }

// WithGroup implements slog.Handler; the count is shared.
func (h *LogCounter) WithGroup(string) slog.Handler { return h }
