package roles

import (
	"context"
	"fmt"
	"time"

	"docsuite/pkg/config"
	"docsuite/pkg/tasks"
)

// Janitor removes, every interval until ctx ends, the stored objects
// older than PIPELINE_TIMEOUT + COMPLETED_TASK_TTL_SECONDS that completed
// tasks left behind (tasks.Sweep): those of a task still queued or
// running are kept, its record read over d.NC. It also removes what
// writes a killed process never finished left, begun as long ago: the
// folder store's temporary files and MinIO's incomplete multipart
// uploads (store.RemovePartial), safe to remove because every write to
// the store ends within PIPELINE_TIMEOUT.
func Janitor(ctx context.Context, d Deps, c config.Common, interval time.Duration) error {
	records, err := tasks.NewRecords(d.NC)
	if err != nil {
		return fmt.Errorf("janitor: %w", err)
	}
	maxAge := c.Timeout() + c.TTL()
	sweep := func() {
		for _, s := range tasks.Sweep(ctx, d.Store, records, time.Now().Add(-maxAge)) {
			if s.Err != nil {
				d.Log.Warn("janitor sweep failed", "prefix", s.Prefix, "objects", s.Objects, "err", s.Err)
				continue
			}
			if s.Objects > 0 {
				d.Log.Info("janitor removed old objects", "prefix", s.Prefix, "objects", s.Objects, "bytes", s.Bytes,
					"older_than", maxAge.String())
			}
		}
	}
	sweep()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			sweep()
		}
	}
}
