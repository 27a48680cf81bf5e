package bus

import (
	"context"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"

	"docsuite/pkg/config"
)

// waitBackoff is the first and the longest pause between two tries of
// ConnectWait and Wait.
var waitBackoff = [2]time.Duration{500 * time.Millisecond, 10 * time.Second}

// Wait calls open until it succeeds or ctx ends, pausing between tries
// (0.5 s, doubling up to 10 s) and logging each failure at WARNING with
// what is awaited, its address and the cause: a role started before NATS
// or MinIO (a host's reboot, `docker compose restart nats`, a NATS cluster
// outside the compose file) waits for it instead of exiting at once and
// being restarted in a loop by its container's restart policy.
func Wait[T any](ctx context.Context, log *slog.Logger, what, addr string, open func() (T, error)) (T, error) {
	pause := waitBackoff[0]
	start := time.Now()
	for try := 1; ; try++ {
		v, err := open()
		if err == nil {
			if try > 1 {
				log.Info(what+" reachable", "addr", addr, "tries", try, "waited_s", int(time.Since(start).Seconds()))
			}
			return v, nil
		}
		log.Warn("waiting for "+what, "addr", addr, "try", try, "retry_in_s", pause.Seconds(), "err", err)
		select {
		case <-ctx.Done():
			var zero T
			return zero, err
		case <-time.After(pause):
		}
		pause = min(2*pause, waitBackoff[1])
	}
}

// ConnectWait is Connect that waits for the server (Wait) until ctx ends.
func ConnectWait(ctx context.Context, url, name string, log *slog.Logger, extra ...nats.Option) (*nats.Conn, error) {
	return Wait(ctx, log, "NATS", config.RedactURLs(url), func() (*nats.Conn, error) { return Connect(url, name, log, extra...) })
}
