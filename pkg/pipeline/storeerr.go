package pipeline

import (
	"errors"
	"fmt"

	"docsuite/pkg/apierr"
	"docsuite/pkg/store"
)

// storeErr is the error of a failed read of what, a task's own object: one
// the store does not hold is the task's own failure (an internal error,
// task_failed for an async task), while a store that cannot answer is a
// dependency down (503 with Retry-After; an async task is tried again), as
// everywhere else in the service.
func storeErr(err error, what string) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("pipeline: read %s: %w", what, err)
	}
	return apierr.Wrap(apierr.DependencyDown, fmt.Errorf("pipeline: read %s: %w", what, err), "Object store unavailable")
}
