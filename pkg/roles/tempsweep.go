package roles

import (
	"context"
	"log/slog"
	"time"

	"docsuite/pkg/decode"
)

// tempSweepEvery is how often a decoding role looks in its temporary
// folder for what a killed process left there.
const tempSweepEvery = 10 * time.Minute

// tempAge is how long an entry of the temporary folder must have gone
// unmodified to be taken for a killed process's: a try of a task ends
// within PIPELINE_TIMEOUT, a task is tried at most four times, and the
// cropper keeps a document open 30 s after its last page, so a live copy
// is always younger.
func tempAge(timeout time.Duration) time.Duration { return 4*timeout + 5*time.Minute }

// sweepTemp removes stale decoding files from dir (TMPDIR) now and every
// tempSweepEvery until ctx ends: in the all-in-one and on a bare host the
// folder outlives the process, and a kill -9 while a PDF was decoded left
// its copy there for good (a container's /tmp is a tmpfs that a restart
// clears). Several roles sharing one folder sweep it alike.
func sweepTemp(ctx context.Context, log *slog.Logger, dir string, timeout time.Duration) {
	run := func() {
		n, err := decode.SweepTemp(dir, tempAge(timeout), time.Now())
		if err != nil {
			log.Warn("temporary folder not swept", "dir", dir, "err", err)
		} else if n > 0 {
			log.Info("removed what an earlier process left in the temporary folder", "dir", dir, "entries", n)
		}
	}
	run()
	go func() {
		t := time.NewTicker(tempSweepEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				run()
			}
		}
	}()
}
